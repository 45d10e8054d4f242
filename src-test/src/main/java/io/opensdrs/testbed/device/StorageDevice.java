package io.opensdrs.testbed.device;

/**
 * The device behind one datastore. IOs are submitted at the simulation's current time
 * and complete later through {@link IoRequest}'s callback. Implementations are mechanistic:
 * queues of IOs over spindles or flash channels, never a formula of the models under test.
 */
public interface StorageDevice {
    /** Name of the profile the device was built from. */
    String profileName();

    /** Addressable bytes of the LUN. */
    long capacityBytes();

    /** Queues an IO; it completes asynchronously in simulated time. */
    void submit(IoRequest io);

    /** IOs submitted and not yet completed. */
    int outstanding();
}
