package io.opensdrs.balance.sleds;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Max-min fair division of a service class's demand bound among its streams (water-filling): a
 * stream that asks for less than an equal part of what is left gets what it asks for, and the
 * rest is divided among the others. SLEDS §3 bounds a class's demand "without restrictions on the
 * relative allocation to each member", so the split is the controller's to choose; a split in
 * proportion to the rates measured under the limits the last split set would keep any split it
 * reached, and the noise of each sample (a few IOs in a second, at a few IOPS) would walk it until
 * one stream had nearly all. A stream whose demand is unknown (the controller's throttled ones)
 * asks for {@link Double#POSITIVE_INFINITY}: streams held back share what the others leave
 * equally, whatever the last split was.
 */
public final class MaxMinFairShare {

    private MaxMinFairShare() {
    }

    /**
     * Each stream's part of {@code bound}; they sum to {@code bound} when the demands together
     * reach it, to the demands otherwise.
     *
     * @param demands each stream's demand, &gt;= 0 ({@code +∞}: as much as it can get)
     */
    public static double[] divide(double bound, double[] demands) {
        if (!(bound >= 0)) {
            throw new IllegalArgumentException("bound must be >= 0, got " + bound);
        }
        Integer[] order = new Integer[demands.length];
        for (int i = 0; i < demands.length; i++) {
            if (!(demands[i] >= 0)) {
                throw new IllegalArgumentException("demands[" + i + "] must be >= 0, got " + demands[i]);
            }
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> demands[i]));
        double[] shares = new double[demands.length];
        double left = bound;
        for (int k = 0; k < order.length; k++) {
            double equal = left / (order.length - k);
            shares[order[k]] = Math.min(demands[order[k]], equal);
            left -= shares[order[k]];
        }
        return shares;
    }
}
