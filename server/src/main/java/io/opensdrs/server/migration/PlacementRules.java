package io.opensdrs.server.migration;

import io.opensdrs.server.vsphere.InventorySnapshot;

import java.util.Optional;

/**
 * The Storage DRS rules a move must still respect when it is about to be issued (affinity,
 * anti-affinity, ...): {@link InventoryPlacementRules}, the rules vCenter holds. {@link #NONE}
 * answers that no rule is violated (an applier without the server's rules).
 */
public interface PlacementRules {

    /** Why the action would violate a rule now, or empty. */
    Optional<String> violation(InventorySnapshot inventory, MigrationAction action);

    PlacementRules NONE = (inventory, action) -> Optional.empty();
}
