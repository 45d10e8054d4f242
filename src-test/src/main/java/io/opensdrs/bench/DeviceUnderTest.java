package io.opensdrs.bench;

import io.opensdrs.testbed.device.DeviceProfile;
import io.opensdrs.testbed.device.DeviceProfiles;

/**
 * An emulated device a benchmark measures: a name for the tables, the testbed profile and
 * the LUN size its streams span.
 */
public record DeviceUnderTest(String name, DeviceProfile profile, long capacityBytes) {

    /** A calibrated profile on a 100 GiB LUN, the size of the fio file it was calibrated against. */
    public static DeviceUnderTest calibrated(String profileName) {
        return new DeviceUnderTest(profileName, DeviceProfiles.get(profileName), 100L << 30);
    }

    /** A stable key for caches: two datastores with equal keys are the same device. */
    public String key() {
        return profile + "@" + capacityBytes;
    }
}
