package io.opensdrs.model.pesto;

/** One device's measured (outstanding IOs, latency, IOPS) points, sorted by outstanding IOs. */
public record LqCurve(String device, double[] outstandingIos, double[] latencyMs, double[] iops) {

    public LqCurve {
        if (outstandingIos.length != latencyMs.length || outstandingIos.length != iops.length) {
            throw new IllegalArgumentException("curve " + device + ": columns differ in length");
        }
        for (int i = 1; i < outstandingIos.length; i++) {
            if (outstandingIos[i] <= outstandingIos[i - 1]) {
                throw new IllegalArgumentException("curve " + device + ": outstanding IOs must be strictly increasing");
            }
        }
    }

    public int size() {
        return outstandingIos.length;
    }

    /** The points with minQ ≤ Q ≤ maxQ. */
    public LqCurve between(double minQ, double maxQ) {
        int n = 0;
        for (double q : outstandingIos) {
            if (q >= minQ && q <= maxQ) {
                n++;
            }
        }
        double[] q = new double[n];
        double[] l = new double[n];
        double[] t = new double[n];
        for (int i = 0, k = 0; i < outstandingIos.length; i++) {
            if (outstandingIos[i] >= minQ && outstandingIos[i] <= maxQ) {
                q[k] = outstandingIos[i];
                l[k] = latencyMs[i];
                t[k++] = iops[i];
            }
        }
        return new LqCurve(device, q, l, t);
    }

    /** The point at exactly {@code q}, or -1. */
    public int indexOf(double q) {
        for (int i = 0; i < outstandingIos.length; i++) {
            if (outstandingIos[i] == q) {
                return i;
            }
        }
        return -1;
    }
}
