package io.opensdrs.server.inventory;

/**
 * Where the inventory comes from: vCenter. The boundary between the server and the vim25 API
 * (SPEC §2: inventory sync with vCenter).
 *
 * <p>The production implementation is {@link Vim25InventorySource} (a PropertyCollector watch over
 * Datacenter, StoragePod, Datastore, HostSystem and VirtualMachine); without a configured vCenter no
 * bean implements this interface and {@link InventorySync} stays idle.
 *
 * <p>Implementations return complete objects for anything created or changed (the real client
 * assembles them from property changes) so that the sync logic stays independent of vim25.
 */
public interface VCenterInventorySource {

    /** The whole inventory at one version. */
    InventorySnapshot fullSnapshot();

    /**
     * What changed after {@code version} (a snapshot's or a previous change set's version).
     * Returns {@link InventoryChanges#fullResyncRequired()} when the source cannot tell (vim25:
     * the version is too old, the session was lost).
     */
    InventoryChanges changesSince(String version);
}
