package io.opensdrs.server.migration;

/**
 * The server's own copy of vCenter's inventory, which every run plans on. A move vCenter has
 * completed is read into it before the action is recorded done: a plan made after that sees the
 * disks where they now are, not where the next scheduled sync would have found them — an
 * evacuation planned a second later would otherwise send a disk's sibling onto the datastore it
 * has just reached, against their VMDK anti-affinity rule. {@link #NONE} stores nothing (an
 * applier without the server's inventory).
 */
@FunctionalInterface
public interface StoredInventory {

    /** Reads vCenter's changes into the stored inventory now. */
    void refresh();

    StoredInventory NONE = () -> {
    };
}
