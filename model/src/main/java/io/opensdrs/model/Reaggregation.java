package io.opensdrs.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The default {@link IncrementalAggregation}: the model's own {@link DatastoreModel#predict(List)}
 * over every member at each prediction, O(n), for a model whose aggregation has no cheaper
 * incremental form.
 */
final class Reaggregation extends MemberListAggregation {

    private double o;

    Reaggregation(DatastoreModel model, Workload[] workloads) {
        super(model, workloads);
    }

    @Override
    public double outstandingIos() {
        return o;
    }

    @Override
    protected void rebuild() {
        o = 0;
        for (int k = 0; k < size; k++) {
            o += workloads[members[k]].outstandingIos();
        }
    }

    @Override
    public Prediction predict(int[] add, int[] remove, Workload extra) {
        List<Workload> list = new ArrayList<>(size + add.length + 1);
        for (int k = 0; k < size; k++) {
            if (!contains(remove, members[k])) {
                list.add(workloads[members[k]]);
            }
        }
        for (int i : add) {
            list.add(workloads[i]);
        }
        if (extra != null) {
            list.add(extra);
        }
        return list.isEmpty() ? model.predict(IDLE) : model.predict(list);
    }

    @Override
    public IncrementalAggregation copy() {
        Reaggregation c = new Reaggregation(model, workloads);
        copyMembersTo(c);
        c.o = o;
        return c;
    }
}
