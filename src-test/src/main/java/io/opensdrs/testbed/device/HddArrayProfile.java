package io.opensdrs.testbed.device;

/**
 * A RAID group of spinning disks behind an array controller.
 *
 * @param controllerMs  controller processing per IO (cache lookup, RAID mapping), ms
 * @param busMBps       host link rate for data served from controller cache, MB/s
 * @param readCacheGB   controller read cache (LRU of 64 KiB lines); 0 = none
 * @param writeCacheMB  battery-backed write-back cache; 0 = write-through
 * @param prefetch      whether the disks read ahead past sequential reads
 */
public record HddArrayProfile(String name, int disks, RaidLevel raid, int stripeKB, double readCacheGB,
                              double writeCacheMB, boolean prefetch, double controllerMs, double busMBps,
                              SpindleMechanics mechanics) implements DeviceProfile {
    public HddArrayProfile {
        if (disks < raid.minDisks()) {
            throw new IllegalArgumentException(raid.name().toLowerCase() + " needs at least " + raid.minDisks()
                    + " disks, got " + disks);
        }
        if (raid == RaidLevel.NONE && disks != 1) {
            throw new IllegalArgumentException("raid 'none' means one disk, got " + disks);
        }
        if ((raid == RaidLevel.RAID10 || raid == RaidLevel.RAID1) && disks % 2 != 0) {
            throw new IllegalArgumentException(raid.name().toLowerCase() + " needs an even number of disks, got " + disks);
        }
        if (stripeKB < 4 || readCacheGB < 0 || writeCacheMB < 0 || controllerMs < 0 || busMBps <= 0) {
            throw new IllegalArgumentException("inconsistent array profile " + name);
        }
    }
}
