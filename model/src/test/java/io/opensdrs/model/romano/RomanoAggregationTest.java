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
