package io.opensdrs.model.queueing;

import java.util.function.DoubleUnaryOperator;

/**
 * A service station of a closed queueing network, described by its completion rate with j
 * customers present (per ms): the general load-dependent station of Reiser and Lavenberg
 * (J. ACM 27(2), 1980), of which a single FCFS server (rate 1/S) and a delay station
 * (rate j/S) are special cases.
 *
 * <p>Noorshams et al. calibrate each station's mean service time μ as a function of the load t
 * on it (§IV-C, Eq. 1, "inspired by the Flow Equivalent Server method"): with t requests
 * present each spends μ(t) there, so the station completes t/μ(t) per ms. With every
 * client at one such station its response time is μ(t) — the quantity the paper fits to
 * response times. {@link #flowEquivalent} builds that station.
 */
public interface Station {

    /** Completion rate (requests per ms) with {@code j ≥ 1} customers present. */
    double rate(int j);

    /**
     * Mean time one visit takes when {@code present} customers (itself included, possibly
     * fractional: approximate MVA's arrival-instant estimate) are at the station.
     */
    double residenceAt(double present);

    /** A single FCFS server with mean service time {@code serviceMs} (load independent). */
    static Station queue(double serviceMs) {
        positive(serviceMs);
        return new Station() {
            public double rate(int j) {
                return 1 / serviceMs;
            }

            public double residenceAt(double present) {
                return serviceMs * Math.max(1, present);
            }
        };
    }

    /** A delay (infinite-server) station: no queueing, every visit takes {@code serviceMs}. */
    static Station delay(double serviceMs) {
        positive(serviceMs);
        return new Station() {
            public double rate(int j) {
                return j / serviceMs;
            }

            public double residenceAt(double present) {
                return serviceMs;
            }
        };
    }

    /**
     * Noorshams' load-dependent station: a visit takes μ(t) ms when t requests are present,
     * so the station completes t/μ(t) per ms (Noorshams §IV-C; the flow-equivalent server of Lazowska et al., QSP, "Flow Equivalence and Hierarchical Modeling").
     * μ is floored at {@code floorMs} because a fitted polynomial may dip below zero outside its data.
     */
    static Station flowEquivalent(DoubleUnaryOperator mu, double floorMs) {
        positive(floorMs);
        return new Station() {
            public double rate(int j) {
                return j / residenceAt(j);
            }

            public double residenceAt(double present) {
                return Math.max(floorMs, mu.applyAsDouble(Math.max(1, present)));
            }
        };
    }

    private static void positive(double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("service time must be a finite number > 0 ms, got " + v);
        }
    }
}
