package io.opensdrs.balance;

import io.opensdrs.model.Prediction;

import java.util.Set;

/**
 * Pesto's "most balanced placement" (Pesto §5.4.2): the destination that leaves the least
 * variance of predicted latencies over the accepting datastores, among those the rules allow.
 * Where a disk must go whatever the balance — off a datastore entering maintenance, away from
 * a disk or VM a rule keeps it apart from.
 */
final class PlacementChoice {

    private PlacementChoice() {
    }

    /**
     * The most balanced destination for {@code u} other than {@code exclude}, or -1 with the
     * rules' reasons (at most 8) in {@code reasons}.
     */
    static int mostBalanced(WorkingPlacement p, MovableUnit u, int exclude, boolean ignoreAffinity, Set<String> reasons) {
        int n = p.datastoreCount();
        double[] lat = p.latencies();
        double s1 = 0;
        double s2 = 0;
        int counted = 0;
        for (int j = 0; j < n; j++) {
            if (p.acceptsDisks(j)) {
                s1 += lat[j];
                s2 += lat[j] * lat[j];
                counted++;
            }
        }
        int best = -1;
        double bestVariance = Double.POSITIVE_INFINITY;
        for (int j = 0; j < n; j++) {
            if (j == exclude) {
                continue;
            }
            String why = RuleChecker.check(p, u.vm(), u.disks(), j, ignoreAffinity);
            if (why != null) {
                if (reasons.size() < 8) {
                    reasons.add(why);
                }
                continue;
            }
            Prediction after = p.load(j).predictWith(u.disks(), null, null);
            double l = after.latencyMs();
            double t1 = s1 - lat[j] + l;
            double t2 = s2 - lat[j] * lat[j] + l * l;
            double variance = t2 / counted - (t1 / counted) * (t1 / counted);
            if (variance < bestVariance) {
                bestVariance = variance;
                best = j;
            }
        }
        if (best < 0 && reasons.isEmpty()) {
            reasons.add("no other datastore in the cluster");
        }
        return best;
    }
}
