package io.opensdrs.model.basil;

import io.opensdrs.model.Workload;

/**
 * BASIL's workload metric (Gulati, Kumar, Ahmad — the numerator of BASIL Eq. 1):
 * L = (K1 + OIO)(K2 + IOsize)(K3 + read%/100)(K4 + random%/100), IO size in KiB.
 */
public record BasilWorkloadMetric(double k1, double k2, double k3, double k4) {

    public double of(Workload w) {
        return (k1 + w.outstandingIos()) * (k2 + w.ioSizeKb()) * (k3 + w.readFraction()) * (k4 + w.randomFraction());
    }
}
