package io.opensdrs.testbed.device;

/** The physical description a device is built from. */
public sealed interface DeviceProfile permits HddArrayProfile, SsdProfile {
    String name();
}
