package io.opensdrs.testbed.workload;

import io.opensdrs.testbed.device.StorageDevice;

/** Where a virtual disk's blocks are now: a device and the offset of the disk's first byte on it. */
public record DiskLocation(String datastore, StorageDevice device, long baseOffset) {
}
