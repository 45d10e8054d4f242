package io.opensdrs.testbed.device;

/** How an array lays data and redundancy over its disks. */
public enum RaidLevel {
    NONE, RAID0, RAID1, RAID5, RAID6, RAID10;

    public static RaidLevel parse(String s) {
        for (RaidLevel r : values()) {
            if (r.name().equalsIgnoreCase(s)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown RAID level '" + s + "' (none, raid0, raid1, raid5, raid6, raid10)");
    }

    /** Disks that hold data (not parity or mirror copies) in one stripe. */
    public int dataDisks(int disks) {
        switch (this) {
            case NONE:
                return 1;
            case RAID0:
                return disks;
            case RAID1:
                return 1;
            case RAID5:
                return disks - 1;
            case RAID6:
                return disks - 2;
            case RAID10:
                return disks / 2;
            default:
                throw new AssertionError(this);
        }
    }

    /** Fewest disks the level can be built from. */
    public int minDisks() {
        switch (this) {
            case NONE:
            case RAID0:
                return 1;
            case RAID1:
            case RAID10:
                return 2;
            case RAID5:
                return 3;
            case RAID6:
                return 4;
            default:
                throw new AssertionError(this);
        }
    }
}
