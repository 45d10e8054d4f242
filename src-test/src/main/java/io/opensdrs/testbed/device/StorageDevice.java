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

    /**
     * What the device's caches hold now. A short sample must not start while they fill: a write-back
     * cache acknowledges writes at controller speed until it is full and then makes them wait for the
     * media, and a read cache evicts nothing until it is full.
     *
     * @param writeRoom the write-back cache's room, bytes; 0 when writes go to the media
     * @param dirty bytes in it: acknowledged to the host, not yet on the media
     * @param written bytes ever taken into it (its content is renewed once this has grown by its room)
     * @param readRoom the read cache's room, bytes; 0 without one
     * @param readHeld bytes the read cache holds
     */
    record Caches(double writeRoom, double dirty, double written, double readRoom, double readHeld) {
        public static final Caches NONE = new Caches(0, 0, 0, 0, 0);
    }

    /** The device's caches now; {@link Caches#NONE} for a device without any. */
    default Caches caches() {
        return Caches.NONE;
    }
}
