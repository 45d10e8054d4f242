package io.opensdrs.bench;

import io.opensdrs.cli.SdrsRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** `sdrs bench b1|b2` refuse a bad option value naming it, before measuring anything. */
class BenchCommandsTest {

    @Test
    void b2RefusesNegativeReferenceAndExhaustiveMoves() {
        SdrsRun exhaustive = SdrsRun.of("bench", "b2", "--exhaustive-moves", "-1");
        assertThat(exhaustive.exit()).isEqualTo(2);
        assertThat(exhaustive.err()).contains("error: --exhaustive-moves must be ≥ 0, was -1");
        assertThat(exhaustive.out()).isEmpty();
        SdrsRun greedy = SdrsRun.of("bench", "b2", "--reference-moves", "-2");
        assertThat(greedy.exit()).isEqualTo(2);
        assertThat(greedy.err()).contains("error: --reference-moves must be ≥ 0, was -2");
    }

    @Test
    void b2RefusesAnUnknownStrategyNamingTheKnownOnes() {
        SdrsRun r = SdrsRun.of("bench", "b2", "--strategy", "romano,bogus");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("unknown strategy 'bogus' (--strategy); known: ").contains("romano");
    }

    @Test
    void b1RefusesTooFewIosPerPoint() {
        SdrsRun r = SdrsRun.of("bench", "b1", "--ios", "10");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("error: --ios must be ≥ 50");
        assertThat(r.out()).isEmpty();
    }
}
