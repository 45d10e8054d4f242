package io.opensdrs.testbed.device;

import java.util.function.Consumer;

/**
 * One IO as the device sees it: a byte range of the datastore's LUN, read or write. The
 * device calls {@link #complete} when the IO is done; latency is completion minus
 * submission, as the vSCSI layer measures it (Romano §4.1: "completion time subtracted
 * from time of queueing per request").
 */
public final class IoRequest {
    private final long offset;
    private final int sizeBytes;
    private final boolean read;
    private final Consumer<IoRequest> onComplete;
    private double submittedAt = Double.NaN;
    private double completedAt = Double.NaN;
    private boolean zeroFilled;

    public IoRequest(long offset, int sizeBytes, boolean read, Consumer<IoRequest> onComplete) {
        if (offset < 0 || sizeBytes <= 0) {
            throw new IllegalArgumentException("bad IO range: offset " + offset + ", size " + sizeBytes);
        }
        this.offset = offset;
        this.sizeBytes = sizeBytes;
        this.read = read;
        this.onComplete = onComplete;
    }

    public long offset() {
        return offset;
    }

    public long end() {
        return offset + sizeBytes;
    }

    public int sizeBytes() {
        return sizeBytes;
    }

    public boolean read() {
        return read;
    }

    public double submittedAt() {
        return submittedAt;
    }

    public double completedAt() {
        return completedAt;
    }

    public double latencyMs() {
        return completedAt - submittedAt;
    }

    /** True when the IO read an unallocated region of thin storage and returned zeros. */
    public boolean zeroFilled() {
        return zeroFilled;
    }

    void markZeroFilled() {
        zeroFilled = true;
    }

    public void submittedAt(double t) {
        submittedAt = t;
    }

    void complete(double t) {
        completedAt = t;
        if (onComplete != null) {
            onComplete.accept(this);
        }
    }
}
