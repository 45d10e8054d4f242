package io.opensdrs.agent.injector;

import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Pesto Eq. 1, L = m·Q + C, fitted by ordinary least squares over the injector's points
 * (outstanding IOs Q, mean latency L in ms). Peak throughput is 1/m (Eq. 4), in IOs per ms,
 * i.e. {@code 1000 / m} IOPS; a fit with R² below 0.93 is discarded (Pesto §5.1).
 */
public record LqFit(double slopeMsPerIo, double interceptMs, double rSquared, int points) {

    public static final double R_SQUARED_GATE = 0.93;

    public static LqFit of(double[] oio, double[] latencyMs) {
        if (oio.length != latencyMs.length) {
            throw new IllegalArgumentException("oio and latency differ in length");
        }
        SimpleRegression r = new SimpleRegression(true);
        for (int i = 0; i < oio.length; i++) {
            r.addData(oio[i], latencyMs[i]);
        }
        double r2 = r.getRSquare();
        return new LqFit(r.getSlope(), r.getIntercept(), Double.isNaN(r2) ? 0 : r2, oio.length);
    }

    /** Peak throughput in IOs per second, 1/m (Pesto Eq. 4). */
    public double peakIops() {
        return slopeMsPerIo > 0 ? 1000.0 / slopeMsPerIo : Double.POSITIVE_INFINITY;
    }

    public boolean passesGate() {
        return points >= 2 && rSquared >= R_SQUARED_GATE && slopeMsPerIo > 0;
    }

    public io.opensdrs.shared.agent.v1.LqFit toProto() {
        return io.opensdrs.shared.agent.v1.LqFit.newBuilder()
                .setSlopeMsPerIo(slopeMsPerIo)
                .setInterceptMs(interceptMs)
                .setRSquared(rSquared)
                .setPoints(points)
                .build();
    }
}
