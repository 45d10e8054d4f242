package io.opensdrs.balance;

/**
 * Why a recommendation or fault exists, with vSphere Storage DRS's reason-code names (SPEC §4)
 * so that the server and the plugin can show what an administrator knows from SDRS.
 */
public enum ReasonCode {
    BALANCE_DATASTORE_SPACE_USAGE("balanceDatastoreSpaceUsage", "Balance datastore space usage"),
    BALANCE_DATASTORE_IO_LOAD("balanceDatastoreIOLoad", "Balance datastore I/O load"),
    DATASTORE_MAINT("datastoreMaint", "Datastore is entering maintenance mode"),
    DATASTORE_SPACE_OUTAGE("datastoreSpaceOutage", "Datastore space outage"),
    VIRTUAL_DISK_JOINT_AFFIN("virtualDiskJointAffin", "Fix virtual disk affinity rule"),
    VIRTUAL_DISK_ANTI_AFFIN("virtualDiskAntiAffin", "Fix virtual disk anti-affinity rule"),
    STORAGE_PLACEMENT("storagePlacement", "Initial placement");

    private final String wireName;
    private final String label;

    ReasonCode(String wireName, String label) {
        this.wireName = wireName;
        this.label = label;
    }

    /** The words the vSphere Client shows for the reason ("Balance datastore I/O load"), for texts an administrator reads. */
    public String label() {
        return label;
    }

    /** The name vSphere uses (e.g. {@code balanceDatastoreIOLoad}). */
    public String wireName() {
        return wireName;
    }

    /** The reason vSphere names {@code wireName}; empty for a name it does not use. */
    public static java.util.Optional<ReasonCode> ofWireName(String wireName) {
        for (ReasonCode r : values()) {
            if (r.wireName.equals(wireName)) {
                return java.util.Optional.of(r);
            }
        }
        return java.util.Optional.empty();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
