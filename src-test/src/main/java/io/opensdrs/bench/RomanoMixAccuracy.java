package io.opensdrs.bench;

import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;
import io.opensdrs.model.romano.RomanoAggregation;
import io.opensdrs.model.romano.RomanoModel;
import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.testbed.world.SteadyStateRun;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * B1's mixes: Romano's aggregation (Eq. 24) scored where it matters, several workloads running
 * together on one device. Each mix is 2–4 Romano Table 7 workloads at 1–8 outstanding IOs (the
 * range of B2's Pesto-like worlds; Romano §5.4 drew 1–3), each on its own virtual disk, run
 * together in the testbed's steady state ({@link SteadyStateRun#together}: the sample B2's worlds
 * are measured with). What a server sees of each disk (its window's O, Z, R, X, as B2's cluster
 * state reads them) is aggregated by Eq. 24 with Z and R weighted by each workload's outstanding
 * IOs or by its throughput T (the model's, as {@link RomanoModel#aggregate} computes it), and
 * the fitted model predicts the aggregate; the measurement is the mix's IO-weighted mean latency
 * (the datastore's latency, what the balancers compare).
 *
 * <p>Half the mixes put a 512 KiB or 1 MiB stream beside 4–8 KiB IOs (Z differs 64–256×), half
 * draw every workload from one size group (4–8, 64, or 512–1024 KiB): the two weightings differ
 * most when IO sizes and rates differ (Romano §5.4 saw the O weighting fail on "highly skewed"
 * pairs).
 */
public final class RomanoMixAccuracy {

    /** How far the mix's IO sizes lie apart. */
    public enum Sizes {
        DIFFER("sizes differ"), SIMILAR("sizes similar");

        private final String label;

        Sizes(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** Romano Table 7's rows (indices into {@link BalancingWorlds#TABLE7}) by IO size. */
    private static final int[] SMALL = {0, 1, 6, 7, 8, 9};
    private static final int[] MEDIUM = {2, 4, 5};
    private static final int[] LARGE = {3, 10};
    private static final int[] ALL = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

    /** One mix: its Table 7 members (names) and their workloads. */
    public record Mix(int index, Sizes sizes, List<String> names, List<WorkloadSpec> members) {
        /** The members as "name O/Z" joined, for tables and CSV. */
        public String describe() {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < members.size(); i++) {
                WorkloadSpec w = members.get(i);
                out.add(String.format(java.util.Locale.ROOT, "%s o%.0f z%.0f", names.get(i), w.oio(), w.ioSizeKB()));
            }
            return String.join(" + ", out);
        }
    }

    /**
     * One mix measured on one device and predicted by one fitted Romano model.
     *
     * @param fit        which calibration the model was fitted from
     * @param seen       each member as the server sees it (its window's O, Z, R, X)
     * @param measuredMs the mix's IO-weighted mean latency
     * @param aggregate  per weighting, the Eq. 24 aggregate
     * @param predicted  per weighting, the model's prediction of that aggregate
     * @param aggregateMeasuredMs per weighting, the aggregate itself run as one closed-loop workload on
     *                   the device: how far the mix is from the workload Eq. 24 says it is, whatever the
     *                   model's own error
     */
    public record MixPoint(String device, String fit, Mix mix, List<Workload> seen, double measuredMs,
                           Map<RomanoAggregation.Weighting, Workload> aggregate,
                           Map<RomanoAggregation.Weighting, Prediction> predicted,
                           Map<RomanoAggregation.Weighting, Double> aggregateMeasuredMs) {
        public double residual(RomanoAggregation.Weighting w) {
            return predicted.get(w).latencyMs() - measuredMs;
        }

        /** The aggregate measured alone − the mix measured, ms. */
        public double aggregationResidual(RomanoAggregation.Weighting w) {
            return aggregateMeasuredMs.get(w) - measuredMs;
        }
    }

    /** A mix measured: each member's window and the IO-weighted mean latency. */
    record Measured(Mix mix, List<DiskWindow> windows, double latencyMs) {
    }

    private RomanoMixAccuracy() {
    }

    /** {@code n} mixes, alternately of differing and of similar IO sizes, from {@code seed}. */
    public static List<Mix> draw(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        List<Mix> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Sizes sizes = i % 2 == 0 ? Sizes.DIFFER : Sizes.SIMILAR;
            int count = 2 + rng.nextInt(3);
            List<Integer> rows = new ArrayList<>();
            if (sizes == Sizes.DIFFER) {
                rows.add(pick(LARGE, rng));
                rows.add(pick(SMALL, rng));
                while (rows.size() < count) {
                    rows.add(pick(ALL, rng));
                }
            } else {
                int[] group = new int[][] {SMALL, MEDIUM, LARGE}[rng.nextInt(3)];
                while (rows.size() < count) {
                    rows.add(pick(group, rng));
                }
            }
            List<String> names = new ArrayList<>();
            List<WorkloadSpec> members = new ArrayList<>();
            for (int row : rows) {
                double[] w = BalancingWorlds.TABLE7[row];
                names.add(BalancingWorlds.TABLE7_NAMES[row]);
                members.add(new WorkloadSpec(1 + rng.nextInt(8), w[1], w[2], w[3], null, null));
            }
            out.add(new Mix(i, sizes, List.copyOf(names), List.copyOf(members)));
        }
        return out;
    }

    private static int pick(int[] rows, SplittableRandom rng) {
        return rows[rng.nextInt(rows.length)];
    }

    /**
     * Measures every mix on the device (mix i with seed {@code seed + i}) and scores each fitted
     * model's prediction of it under both weightings; each aggregate is also measured alone with
     * {@code bench} (seeds from {@code aggregateSeed}, four per mix).
     *
     * @param fits fit name → a fitted Romano model of this device (at most two)
     */
    public static List<MixPoint> score(DeviceUnderTest device, Map<String, RomanoModel> fits, List<Mix> mixes, long seed,
                                       ClosedLoopMeasurement bench, long aggregateSeed, ExecutorService executor) {
        if (fits.size() > 2) {
            throw new IllegalArgumentException("at most two fits, got " + fits.keySet());
        }
        List<Future<List<MixPoint>>> futures = new ArrayList<>();
        for (Mix m : mixes) {
            futures.add(executor.submit(() -> score(device, fits, m, seed + m.index(), bench,
                    aggregateSeed + 4L * m.index())));
        }
        return ClosedLoopMeasurement.results(futures).stream().flatMap(List::stream).toList();
    }

    private static List<MixPoint> score(DeviceUnderTest device, Map<String, RomanoModel> fits, Mix mix, long seed,
                                        ClosedLoopMeasurement bench, long aggregateSeed) {
        Measured measured = measure(device, mix, seed);
        List<Workload> seen = measured.windows().stream().map(RomanoMixAccuracy::seen).toList();
        List<MixPoint> out = new ArrayList<>();
        long s = aggregateSeed;
        for (Map.Entry<String, RomanoModel> fit : fits.entrySet()) {
            RomanoModel model = fit.getValue();
            Map<RomanoAggregation.Weighting, Workload> aggregate = new EnumMap<>(RomanoAggregation.Weighting.class);
            Map<RomanoAggregation.Weighting, Prediction> predicted = new EnumMap<>(RomanoAggregation.Weighting.class);
            Map<RomanoAggregation.Weighting, Double> alone = new EnumMap<>(RomanoAggregation.Weighting.class);
            for (RomanoAggregation.Weighting w : RomanoAggregation.Weighting.values()) {
                Workload a = RomanoAggregation.aggregate(seen, model::throughput, w);
                aggregate.put(w, a);
                predicted.put(w, model.predict(a));
                alone.put(w, bench.measure(a, s++).latencyMs());
            }
            out.add(new MixPoint(device.name(), fit.getKey(), mix, seen, measured.latencyMs(), aggregate, predicted, alone));
        }
        return out;
    }

    static Measured measure(DeviceUnderTest device, Mix mix, long seed) {
        List<DiskWindow> windows = SteadyStateRun.together(device.profile(), device.capacityBytes(), "mix", seed,
                mix.members());
        double ios = 0;
        double weighted = 0;
        for (DiskWindow w : windows) {
            ios += w.ios();
            weighted += w.ios() * w.meanLatencyMs();
        }
        if (ios == 0) {
            throw new IllegalStateException("no IO completed in mix " + mix.describe() + " on " + device.name());
        }
        return new Measured(mix, windows, weighted / ios);
    }

    /** A disk as B2's cluster state gives it to a strategy: its window's O, Z, R, X. */
    static Workload seen(DiskWindow w) {
        if (w.ios() == 0) {
            return new Workload(0, 4, 1, 1);
        }
        return new Workload(Math.max(0, w.meanOutstanding()), Math.max(0.5, w.meanIoSizeKB()),
                Math.max(0, Math.min(1, w.readShare())), Math.max(0, Math.min(1, w.randomness())));
    }
}
