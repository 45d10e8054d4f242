package io.opensdrs.balance;

/**
 * Why a recommendation or fault exists, with vSphere Storage DRS's reason-code names (SPEC §4)
 * so that the server and the plugin can show what an administrator knows from SDRS.
 */
public enum ReasonCode {
    BALANCE_DATASTORE_SPACE_USAGE("balanceDatastoreSpaceUsage"),
    BALANCE_DATASTORE_IO_LOAD("balanceDatastoreIOLoad"),
    DATASTORE_MAINT("datastoreMaint"),
    DATASTORE_SPACE_OUTAGE("datastoreSpaceOutage"),
    VIRTUAL_DISK_JOINT_AFFIN("virtualDiskJointAffin"),
    VIRTUAL_DISK_ANTI_AFFIN("virtualDiskAntiAffin"),
    STORAGE_PLACEMENT("storagePlacement");

    private final String wireName;

    ReasonCode(String wireName) {
        this.wireName = wireName;
    }

    /** The name vSphere uses (e.g. {@code balanceDatastoreIOLoad}). */
    public String wireName() {
        return wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
