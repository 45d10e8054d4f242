package io.opensdrs.model.romano;

import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RomanoAggregationTest {

    @Test
    void mixingASequentialStreamWithARandomOneLeavesLittleSequentiality() {
        // Equal throughputs: a plain mean says 50 % sequential; Eqs. 20–22 leave 25 %.
        double x = RomanoAggregation.randomness(0, 1, 100, 100);
        assertThat(1 - x).isCloseTo(0.25, within(1e-12));
        assertThat(1 - x).isLessThan(0.5);
        // Two equally fast sequential streams interleave into fully random access.
        assertThat(RomanoAggregation.randomness(0, 0, 100, 100)).isCloseTo(1, within(1e-12));
        // Two random streams stay random.
        assertThat(RomanoAggregation.randomness(1, 1, 5, 500)).isCloseTo(1, within(1e-12));
    }

    @Test
    void aFastSequentialStreamDominatesASlowRandomOne() {
        // Romano §4.2's E1 measurements: T = 2100.52 (0 % random) and 27.93 (100 % random).
        double x = RomanoAggregation.randomness(0, 1, 2100.52, 27.93);
        double seqMean = 2100.52 / (2100.52 + 27.93);
        double lseek = 27.93 / (2100.52 + 27.93) * 2 * seqMean;
        assertThat(x).isCloseTo(1 - seqMean * (1 - lseek), within(1e-12));
        assertThat(x).isBetween(0.03, 0.05);
    }

    @Test
    void eq24SumsOutstandingIosWeighsSizeAndReadsByThemAndRandomnessByThroughput() {
        // a slow 1 MiB stream (T 3) holding 12 IOs in flight beside fast 4 KiB reads (T 300) holding 4
        Workload a = new Workload(4, 4, 1.0, 1.0);
        Workload b = new Workload(12, 1024, 0.0, 0.0);
        Map<Workload, Double> t = Map.of(a, 300.0, b, 3.0);
        Workload agg = RomanoAggregation.aggregate(List.of(a, b), t::get);
        assertThat(agg.outstandingIos()).isEqualTo(16);
        // Σ O_i·Z_i = O·Z̄: the model's O·Z terms see the 1 MiB IOs that fill the queue
        assertThat(agg.ioSizeKb()).isCloseTo((4 * 4 + 12 * 1024) / 16.0, within(1e-6));
        assertThat(agg.ioSizeKb() * agg.outstandingIos()).isCloseTo(4 * 4 + 12 * 1024, within(1e-6));
        assertThat(agg.readFraction()).isCloseTo(0.25, within(1e-9));
        assertThat(agg.randomFraction()).isCloseTo(RomanoAggregation.randomness(1, 0, 300, 3), within(1e-12));
        // by throughput (Eq. 24 as printed) the mix would read as 14 KiB IOs
        assertThat((4 * 300 + 1024 * 3) / 303.0).isLessThan(15);
    }

    /**
     * A device that serves one IO at a time in arrival order (an SSD's link, a single spindle):
     * a workload alone at O IOs in flight takes P = O·s(Z), s(Z) = c + Z/B. Run together, every IO
     * waits for all ΣO_i in flight, and Little's law at saturation (Σ_i X_i·s_i = 1, X_i = O_i/L)
     * gives each the same latency L = Σ_i O_i·s(Z_i). Romano fitted to the workloads alone predicts
     * the mix exactly when its Z is weighted by O; weighted by T = 1/s(Z), a 1 MiB stream beside
     * 4 KiB reads counts as one IO in twenty and the mix reads as small IOs.
     */
    @Test
    void aMixOnAOneAtATimeDeviceIsPredictedFromItsOutstandingIoWeightedSize() {
        double c = 0.1;
        double bandwidthKbPerMs = 500;
        java.util.function.ToDoubleFunction<Workload> service = w -> c + w.ioSizeKb() / bandwidthKbPerMs;
        java.util.Random rnd = new java.util.Random(7);
        List<io.opensdrs.model.Observation> alone = new java.util.ArrayList<>();
        for (double x : new double[] {0, 0.5, 1}) {
            for (double r : new double[] {0, 0.5, 1}) {
                for (double z : new double[] {4, 64, 256, 1024}) {
                    for (double o : new double[] {1, 4, 16}) {
                        Workload w = new Workload(o, z, r, x);
                        alone.add(new io.opensdrs.model.Observation(w,
                                o * service.applyAsDouble(w) * (1 + 0.01 * rnd.nextGaussian())));
                    }
                }
            }
        }
        RomanoModel model = new RomanoModel();
        model.fit(alone);
        Workload stream = new Workload(4, 1024, 1, 0);
        Workload reads = new Workload(4, 4, 1, 1);
        double measured = 4 * service.applyAsDouble(stream) + 4 * service.applyAsDouble(reads);

        double product = model.predict(model.aggregate(List.of(stream, reads))).latencyMs();
        assertThat(product).isCloseTo(measured, within(0.03 * measured));
        var fold = model.incrementalAggregation(new Workload[] {stream, reads});
        fold.change(new int[] {0, 1}, new int[0]);
        assertThat(fold.predict(new int[0], new int[0], null).latencyMs()).isCloseTo(measured, within(0.03 * measured));
        // the balancer's view of moving the stream onto the reads' device
        var reading = model.incrementalAggregation(new Workload[] {stream, reads});
        reading.change(new int[] {1}, new int[0]);
        assertThat(reading.predict(new int[] {0}, new int[0], null).latencyMs()).isCloseTo(measured, within(0.03 * measured));

        double byThroughput = model.predict(RomanoAggregation.aggregate(List.of(stream, reads), model::throughput,
                RomanoAggregation.Weighting.THROUGHPUT)).latencyMs();
        assertThat(byThroughput).isLessThan(0.5 * measured);
    }

    @Test
    void workloadsWithNothingInFlightAverageEvenly() {
        Workload a = new Workload(0, 8, 1.0, 1.0);
        Workload b = new Workload(0, 64, 0.5, 0.0);
        Workload agg = RomanoAggregation.aggregate(List.of(a, b), w -> 10.0);
        assertThat(agg.outstandingIos()).isZero();
        assertThat(agg.ioSizeKb()).isCloseTo(36, within(1e-6));
        assertThat(agg.readFraction()).isCloseTo(0.75, within(1e-6));
    }

    @Test
    void meritIsTheAlphaNormAndPunishesTheWorstDatastore() {
        MeritMetric m = MeritMetric.romano();
        assertThat(m.of(10, 10)).isCloseTo(10 * Math.pow(2, 0.2), within(1e-12));
        // Same total latency, less balanced → higher merit.
        assertThat(m.of(5, 15)).isGreaterThan(m.of(10, 10));
    }
}
