package io.opensdrs.model.basil;

import io.opensdrs.model.IncrementalAggregation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;

/**
 * BASIL's aggregation kept incrementally: workloads placed together add their metrics (BASIL
 * §4), so a datastore's latency is Σ L_i / K5 with L_i the numerator of BASIL Eq. 1. A running
 * sum of L_i and of O: O(1) per workload added or removed.
 */
final class WorkloadMetricSum extends IncrementalAggregation {

    private final BasilModel basil;
    private double sumMetric;
    private double o;

    WorkloadMetricSum(BasilModel model, Workload[] workloads) {
        super(model, workloads);
        this.basil = model;
    }

    @Override
    public double outstandingIos() {
        return o;
    }

    @Override
    public Prediction predict(int[] add, int[] remove, Workload extra) {
        double l = sumMetric;
        double q = o;
        for (int i : add) {
            l += basil.metric().of(workloads[i]);
            q += workloads[i].outstandingIos();
        }
        for (int i : remove) {
            l -= basil.metric().of(workloads[i]);
            q -= workloads[i].outstandingIos();
        }
        if (extra != null) {
            l += basil.metric().of(extra);
            q += extra.outstandingIos();
        }
        return Prediction.of(Math.max(0, q), Math.max(0, l) / basil.k5(), null);
    }

    @Override
    public void change(int[] add, int[] remove) {
        for (int i : add) {
            sumMetric += basil.metric().of(workloads[i]);
            o += workloads[i].outstandingIos();
        }
        for (int i : remove) {
            sumMetric -= basil.metric().of(workloads[i]);
            o -= workloads[i].outstandingIos();
        }
    }

    @Override
    public IncrementalAggregation copy() {
        WorkloadMetricSum c = new WorkloadMetricSum(basil, workloads);
        c.sumMetric = sumMetric;
        c.o = o;
        return c;
    }
}
