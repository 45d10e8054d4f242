package io.opensdrs.testbed.workload;

import io.opensdrs.testbed.device.IoRequest;

/** Sees every IO of a virtual disk at the vSCSI layer: when it is queued and when it completes. */
public interface IoObserver {
    /** The IO entered the disk's queue at {@code now}; {@code diskOffset} is relative to the disk. */
    void issued(double now, long diskOffset, int sizeBytes, boolean read);

    void completed(double now, IoRequest io);

    IoObserver NONE = new IoObserver() {
        @Override
        public void issued(double now, long diskOffset, int sizeBytes, boolean read) {
        }

        @Override
        public void completed(double now, IoRequest io) {
        }
    };
}
