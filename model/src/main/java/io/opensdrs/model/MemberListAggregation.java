package io.opensdrs.model;

import java.util.Arrays;

/**
 * An {@link IncrementalAggregation} that keeps the indices of its workloads in arrival order,
 * for the aggregations that need them all (or in order) to predict.
 */
public abstract class MemberListAggregation extends IncrementalAggregation {

    protected int[] members = new int[8];
    protected int size;

    protected MemberListAggregation(DatastoreModel model, Workload[] workloads) {
        super(model, workloads);
    }

    @Override
    public final void change(int[] add, int[] remove) {
        if (remove.length > 0) {
            int w = 0;
            for (int k = 0; k < size; k++) {
                if (!contains(remove, members[k])) {
                    members[w++] = members[k];
                }
            }
            size = w;
        }
        for (int i : add) {
            if (size == members.length) {
                members = Arrays.copyOf(members, size * 2);
            }
            members[size++] = i;
        }
        rebuild();
    }

    /** Recomputes what the subclass keeps from the members, after every change. */
    protected abstract void rebuild();

    protected static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    protected final void copyMembersTo(MemberListAggregation c) {
        c.members = Arrays.copyOf(members, Math.max(8, members.length));
        c.size = size;
    }
}
