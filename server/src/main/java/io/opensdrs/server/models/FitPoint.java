package io.opensdrs.server.models;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;

/** One observation a model was fitted from, as stored in the model history and served to the plugin. */
public record FitPoint(double outstandingIos, double ioSizeKb, double readShare, double randomness,
                       double latencyMs, Double iops) {

    Observation toObservation() {
        Workload w = new Workload(outstandingIos, ioSizeKb, readShare, randomness);
        return iops == null ? new Observation(w, latencyMs) : new Observation(w, latencyMs, iops);
    }
}
