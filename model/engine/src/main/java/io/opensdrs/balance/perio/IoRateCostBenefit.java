package io.opensdrs.balance.perio;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.DatastoreForecast;
import io.opensdrs.balance.Estimate;
import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.balance.pesto.CostBenefit;
import io.opensdrs.model.Prediction;

/**
 * The cost and benefit of one move counted in what the VMs get done, on bounds. The workloads
 * are closed loops of fixed outstanding IOs (Little's law: a disk's IO rate is O / L), so Σ O is
 * the same wherever the disks are and the cluster's per-IO latency Σ O / Σ IOPS falls exactly
 * as its IO rate rises ({@link WorkingPlacement#rateAfter}).
 *
 * <p><b>Benefit</b>: the pair's IO rate gained, times the invocation period (16 h): the IOs the
 * VMs complete more before the next run. <b>Cost</b>: the IOs they complete less while the
 * copy runs — each datastore's rate falls as its latency rises with the copy's outstanding IOs
 * (Pesto §5.4.1: 16, 64 KiB), T·ΔL / (L + ΔL), for the copy's duration
 * ({@link CostBenefit#migrationSeconds}). Both are IOs, a count an administrator can read.
 *
 * <p><b>Bounds</b>: each datastore's latency after the move is the model's predicted change from
 * now with the change's error where the model knows it, else the after-prediction's interval
 * ({@link CostBenefit#anchored}); the rates are monotone in those latencies, so the benefit's
 * lower bound is the rate gain with both latencies at their upper ends. A move is worthwhile
 * when the benefit's lower bound exceeds the cost's upper bound
 * ({@link BalancingSettings#costBenefitOnBounds()}), else when benefit &gt; cost.
 *
 * <p><b>The worst p90</b> (what SDRS's IO latency threshold reads): each datastore's p90 after
 * the move is its p90 now ({@link WorkingPlacement#ioP90}) changed in proportion to its IOs'
 * latency Σ O / Σ IOPS; a move that would take either datastore above the cluster's worst p90 now
 * raises it.
 */
public final class IoRateCostBenefit {

    /**
     * One move's outcome. {@code rateGain}: the pair's IO rate after minus before (IOPS);
     * {@code benefit} and {@code cost}: IOs; the forecasts' latencies are the datastores' IO-weighted
     * latencies (what their statistics report), their p90s as {@link WorkingPlacement#ioP90}.
     */
    public record Result(Estimate rateGain, Estimate benefit, Estimate cost, double copySeconds,
                         DatastoreForecast source, DatastoreForecast destination, boolean raisesWorstP90,
                         boolean worthwhile) {

        /** Benefit's lower bound minus cost's upper bound: how safely the move pays. */
        public double margin() {
            return benefit.lower() - cost.upper();
        }
    }

    private final WorkingPlacement p;
    private final CostBenefit copies;
    private final BalancingSettings settings;

    public IoRateCostBenefit(WorkingPlacement placement, CostBenefit costBenefit) {
        this.p = placement;
        this.copies = costBenefit;
        this.settings = placement.settings();
    }

    /** The pair's IO rate gain at the point predictions (IOPS), cheap enough to screen every candidate. */
    public double pointRateGain(MovableUnit unit, int source, int destination, Prediction sourceAfter) {
        Prediction destinationAfter = p.load(destination).predictWith(unit.disks(), null, null);
        double[] after = p.rateAfter(unit.disks(), source, destination, sourceAfter.latencyMs(), destinationAfter.latencyMs());
        return after[0] + after[1] - p.ioRate(source) - p.ioRate(destination);
    }

    public Result evaluate(MovableUnit unit, int source, int destination, Prediction sourceAfter) {
        Prediction destinationAfter = p.load(destination).predictWith(unit.disks(), null, null);
        Estimate sa = CostBenefit.anchored(sourceAfter, p.prediction(source), p.latency(source), true);
        Estimate da = CostBenefit.anchored(destinationAfter, p.prediction(destination), p.latency(destination), true);
        double before = p.ioRate(source) + p.ioRate(destination);
        int[] disks = unit.disks();
        double[] point = p.rateAfter(disks, source, destination, sa.value(), da.value());
        double[] slow = p.rateAfter(disks, source, destination, sa.upper(), da.upper());
        double[] fast = p.rateAfter(disks, source, destination, sa.lower(), da.lower());
        double g = point[0] + point[1] - before;
        double gLo = Math.min(g, slow[0] + slow[1] - before);
        double gHi = Math.max(g, fast[0] + fast[1] - before);
        Estimate gain = new Estimate(g, gLo, gHi);
        Prediction srcCopy = copies.copyLoad(source, true);
        Prediction dstCopy = copies.copyLoad(destination, false);
        double seconds = copies.migrationSeconds(unit.sizeGb(), srcCopy, dstCopy);
        // the gain starts when the copy has finished: a copy longer than the period gains nothing before the next run
        double period = Math.max(0, settings.invocationPeriodHours() * 3600 - seconds);
        Estimate benefit = gain.scaled(period);
        Estimate lostSrc = lostRate(source, CostBenefit.increase(srcCopy, p.prediction(source), p.latency(source)));
        Estimate lostDst = lostRate(destination, CostBenefit.increase(dstCopy, p.prediction(destination), p.latency(destination)));
        Estimate cost = new Estimate((lostSrc.value() + lostDst.value()) * seconds, (lostSrc.lower() + lostDst.lower()) * seconds,
                (lostSrc.upper() + lostDst.upper()) * seconds);
        boolean worthwhile = settings.costBenefitOnBounds() ? benefit.lower() > cost.upper() : benefit.value() > cost.value();

        double movingOio = 0;
        for (int i : disks) {
            if (p.diskIoRate(i) > 0) {
                movingOio += p.diskWorkload(i).outstandingIos();
            }
        }
        double qs = Math.max(0, p.ioOutstanding(source) - movingOio);
        double qd = p.ioOutstanding(destination) + movingOio;
        double srcNow = p.ioWeightedLatency(source);
        double dstNow = p.ioWeightedLatency(destination);
        Estimate srcIo = ioLatency(qs, point[0], slow[0], fast[0]);
        Estimate dstIo = ioLatency(qd, point[1], slow[1], fast[1]);
        double srcP90 = p.ioP90(source);
        double dstP90 = p.ioP90(destination);
        double srcP90After = p90After(srcP90, srcNow, srcIo.value(), true, srcP90, srcNow);
        double dstP90After = p90After(dstP90, dstNow, dstIo.value(), p.ioOutstanding(destination) > 0, srcP90, srcNow);
        // judged at the pessimistic end: the worst p90 must not rise even with both latencies at their upper bounds
        double worstAfter = Math.max(p90After(srcP90, srcNow, srcIo.upper(), true, srcP90, srcNow),
                p90After(dstP90, dstNow, dstIo.upper(), p.ioOutstanding(destination) > 0, srcP90, srcNow));
        boolean raisesWorst = worstAfter > p.worstIoP90() * (1 + 1e-9);
        DatastoreForecast src = new DatastoreForecast(p.datastoreId(source), p.modelName(source), Estimate.exact(srcNow), srcIo,
                srcP90, srcP90After, !(p.ioOutstanding(source) > 0), !(qs > 0));
        DatastoreForecast dst = new DatastoreForecast(p.datastoreId(destination), p.modelName(destination), Estimate.exact(dstNow),
                dstIo, dstP90, dstP90After, !(p.ioOutstanding(destination) > 0), !(qd > 0));
        return new Result(gain, benefit, cost, seconds, src, dst, raisesWorst, worthwhile);
    }

    /**
     * A datastore's p90 after the move: its p90 now scaled as its IO-weighted latency; one without IO
     * now takes on the p90-to-mean shape of the source, whose IOs arrive.
     */
    private static double p90After(double p90Now, double ioNow, double ioAfter, boolean busy, double sourceP90, double sourceIo) {
        if (busy && ioNow > 0) {
            return p90Now * ioAfter / ioNow;
        }
        return sourceIo > 0 ? ioAfter * sourceP90 / sourceIo : ioAfter;
    }

    /** A datastore's IO-weighted latency Σ O / Σ IOPS after the move, bounded by its rate's bounds; 0 without IO. */
    private static Estimate ioLatency(double oio, double rate, double slowRate, double fastRate) {
        if (!(oio > 0) || !(rate > 0)) {
            return Estimate.exact(0);
        }
        double v = 1000 * oio / rate;
        double hi = slowRate > 0 ? 1000 * oio / slowRate : v;
        double lo = fastRate > 0 ? 1000 * oio / fastRate : v;
        return new Estimate(v, Math.min(v, lo), Math.max(v, hi));
    }

    /** The IO rate datastore j's disks lose while its latency is raised by {@code increase}: T·ΔL / (L + ΔL). */
    private Estimate lostRate(int j, Estimate increase) {
        double rate = p.ioRate(j);
        double l = p.latency(j);
        if (!(rate > 0) || !(l > 0)) {
            return Estimate.exact(0);
        }
        return new Estimate(lost(rate, l, increase.value()), lost(rate, l, increase.lower()), lost(rate, l, increase.upper()));
    }

    private static double lost(double rate, double latency, double increase) {
        double d = Math.max(0, increase);
        return rate * d / (latency + d);
    }
}
