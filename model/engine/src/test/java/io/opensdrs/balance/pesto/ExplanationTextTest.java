package io.opensdrs.balance.pesto;

import io.opensdrs.balance.Clusters;
import io.opensdrs.balance.DatastoreForecast;
import io.opensdrs.balance.Estimate;
import io.opensdrs.balance.Move;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How a recommendation's explanation reads: idle datastores, cost and benefit in their unit, once. */
class ExplanationTextTest {

    /** A (m=1, C=2) carries 10 + 10 OIO → 22 ms; B is empty. */
    private static Clusters twoDatastores() {
        return LatencyEqualizationTest.twoDatastores(10, null, null);
    }

    @Test
    void aDatastoreWithoutIoReadsIdleNotAZeroOrInterceptLatency() {
        CostBenefit.Result r = new ClusterStateProbe(twoDatastores().build()).evaluate("mover", "B");
        DatastoreForecast dst = r.destination();
        assertThat(dst.idleBefore()).isTrue();
        assertThat(dst.idleAfter()).isFalse();
        // the LQ line answers its intercept, 2 ms, for no load, and B's p90 would be projected from nothing
        assertThat(dst.latencyChange()).isEqualTo("idle → 12.00 ms");
        assertThat(dst.p90Change()).startsWith("idle → ");
        DatastoreForecast src = r.source();
        assertThat(src.idleBefore()).isFalse();
        assertThat(src.latencyChange()).isEqualTo("22.00 → 12.00 ms");
    }

    @Test
    void aDatastoreLeftWithoutIoReadsIdleAfterTheMove() {
        Clusters alone = Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 10_000, LqSlopeModel.of(1, 2), null)
                .vm("mover", "A", 10, 20);
        CostBenefit.Result r = new ClusterStateProbe(alone.build()).evaluate("mover", "B");
        assertThat(r.source().idleAfter()).isTrue();
        assertThat(r.source().latencyChange()).isEqualTo("22.00 ms → idle");
        assertThat(r.source().p90Change()).isEqualTo("22.00 ms → idle");
    }

    @Test
    void theSummaryOfAMoveOntoAnEmptyDatastoreSaysIdle() {
        MovePlan plan = new LatencyEqualization().plan(twoDatastores().build());
        assertThat(plan.moves()).hasSize(1);
        String summary = plan.moves().get(0).explanation().summary();
        assertThat(summary).contains("destination idle → 12.00 ms").doesNotContain("destination 2.00");
    }

    /**
     * A model can predict a datastore's mean falling by more than its p90 (the demo's queueing model: an SSD's mean
     * 0.54 → 0.05 ms with a disk added, at 0.32 ms p90); the shifted p90 floors at 0, which is no projection.
     */
    @Test
    void aP90ProjectionFlooredAtZeroSaysSoInsteadOfZero() {
        DatastoreForecast f = new DatastoreForecast("ssd", "queueing", Estimate.exact(0.54), Estimate.exact(0.05), 0.32, 0,
                false, false);
        assertThat(f.p90Change()).isEqualTo("0.32 ms → not projected (the model's mean falls 0.49 ms, more than the p90)");
        assertThat(f.latencyChange()).isEqualTo("0.54 → 0.05 ms");
    }

    @Test
    void aPercentileFlooredAtZeroInANoteSaysSo() {
        assertThat(LatencyEqualization.triple(new double[] {0, 60.25, 217.22})).isEqualTo("0 (floored)/60.25/217.22");
    }

    @Test
    void aLatencyBelowFiveMicrosecondsIsNotPrintedAsZero() {
        assertThat(Estimate.ms(0.004)).isEqualTo("0.0040");
        assertThat(Estimate.ms(0)).isEqualTo("0.00");
        assertThat(Estimate.ms(0.21)).isEqualTo("0.21");
        assertThat(new Estimate(0.003, 0.001, 0.02).toString()).isEqualTo("0.0030 [0.0010, 0.02]");
        // an interval cut at zero: a bound, not a latency
        assertThat(new Estimate(4.89, 0, 13.24).toString()).isEqualTo("4.89 [0, 13.24]");
    }

    /**
     * Eq. 11 per percentile is 10·10 − 0 + 10·(22 − 12) = 200 ms·OIO and Eq. 10 is 20·16 = 320 ms·OIO
     * (LatencyEqualizationTest); both weigh by the pair's 20 outstanding IOs, so per IO and percentile
     * they are 10 ms less for the 16-h period and 16 ms more during the 389-s copy (6 min).
     */
    @Test
    void costAndBenefitReadAsTheMeanLatencyChangePerOutstandingIoWithTheTotalsInTheirUnit() {
        CostBenefit.Result r = new ClusterStateProbe(twoDatastores().build()).evaluate("mover", "B");
        assertThat(r.outstandingIos()).isEqualTo(20.0);
        assertThat(r.periodSeconds()).isEqualTo(16 * 3600.0);
        assertThat(r.describe()).isEqualTo("the pair's 20 outstanding IOs wait 10.00 ms less on average for the 16-h period"
                + " and 16.00 ms more during the ~6-min copy (mean of p50, p70, p90; Pesto Eqs. 10–11: benefit 34.6 M ≥ cost 374 k"
                + " ms·OIO·s)");
    }

    @Test
    void costAndBenefitArePrintedOnceInTheSummary() {
        Move m = new LatencyEqualization().plan(twoDatastores().build()).moves().get(0);
        String summary = m.explanation().summary();
        assertThat(summary.split("ms·OIO·s", -1)).hasSize(2);
        assertThat(summary.split("benefit", -1)).hasSize(2);
        assertThat(summary).doesNotContain("34560000");
    }

    @Test
    void magnitudesReadWithThreeSignificantDigitsAndAnSiPrefix() {
        assertThat(CostBenefit.magnitude(101_996_793.7)).isEqualTo("102 M");
        assertThat(CostBenefit.magnitude(1_305_138.4)).isEqualTo("1.31 M");
        assertThat(CostBenefit.magnitude(871_323.9)).isEqualTo("871 k");
        assertThat(CostBenefit.magnitude(-52_325.2)).isEqualTo("−52.3 k");
        assertThat(CostBenefit.magnitude(3.14159)).isEqualTo("3.14");
        assertThat(CostBenefit.magnitude(new Estimate(52_325_248.2, 33_668_172.6, 70_982_323.8))).isEqualTo("52.3 M [33.7 M, 71.0 M]");
        assertThat(CostBenefit.duration(45)).isEqualTo("45-s");
        assertThat(CostBenefit.duration(389)).isEqualTo("6-min");
        assertThat(CostBenefit.duration(16 * 3600)).isEqualTo("16-h");
    }

    @Test
    void aMoveWithoutIoOnEitherSideSaysSoInsteadOfDividingByZero() {
        Clusters quiet = Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 10_000, LqSlopeModel.of(1, 2), null)
                .vm("mover", "A", 10, 0);
        CostBenefit.Result r = new ClusterStateProbe(quiet.build()).evaluate("mover", "B");
        assertThat(r.describe()).startsWith("no VM IO on either datastore").doesNotContain("NaN");
        assertThat(r.source().latencyChange()).isEqualTo("idle → idle");
    }
}
