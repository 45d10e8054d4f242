package io.opensdrs.balance.pesto;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.DatastoreForecast;
import io.opensdrs.balance.Estimate;
import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.model.Interval;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;

import java.util.Locale;

/**
 * Pesto's cost-benefit analysis of one candidate move (Pesto §5.4.1), evaluated on bounds.
 *
 * <p><b>Cost</b> (Eq. 10) = Q_src·ΔL_src + Q_dst·ΔL_dst, where ΔL is the latency the
 * migration's own outstanding IOs (16 by default; 64 KiB sequential reads at the source,
 * writes at the destination) add, paid for the copy's duration: disk size over the lower of
 * the copy's IOPS at source and destination. Pesto reads those as the peak IOPS (≈ 1/m, Eq. 4)
 * minus the IOPS in use; on a saturated datastore that is nothing, and the datastore that most
 * needs relief could never pay for a move: its copies would be estimated to take days. A
 * storage vMotion is a closed loop of Q_mig IOs that competes with the VMs' IOs rather than
 * waiting for spare capacity, so by Little's law it gets Q_mig / L IOPS, L the model's latency
 * with the copy's IOs added — the same prediction whose rise ΔL the cost already charges.
 *
 * <p><b>Benefit</b> (Eq. 11) = Q_src·ΔL_src − Q_dst·ΔL_dst + Q_mig·(L_src^before − L_dst^after),
 * the source's remaining IOs getting faster, the destination's slower, and the moved disk's own
 * IOs changing datastore; paid for the invocation period (16 h by default).
 *
 * <p>Both are computed at the 50th, 70th and 90th percentile and summed (Pesto §5.4.1): a
 * percentile after the move is the observed one scaled by the model's relative change
 * ("current latency and the fraction of load moved").
 *
 * <p><b>Units</b>: ms·OIO·s. Each term of Eqs. 10–11 is a datastore's outstanding IOs Q times the
 * change ΔL in the latency each of them sees: Σ Q·ΔL is the latency change summed over the IOs in
 * flight on the two datastores at any moment (ms·OIO), and the equations integrate it over the
 * invocation period (benefit) or the copy (cost). Both equations weigh by the same Q, the pair's
 * outstanding IOs with the moved disk's (Q_src + Q_dst + Q_mig in Eq. 11, Q_src^before + Q_dst in
 * Eq. 10), so dividing by it, by the three percentiles and by the duration reads both as a mean
 * latency change per outstanding IO: "the pair's 34 outstanding IOs wait 6.6 ms less on average
 * for 16 h, 2.1 ms more during the ~9-min copy" ({@link Result#describe}). They are not seconds of
 * IO delay: that would weigh each term by the IO rate λ = Q/L (Little's law) rather than by Q,
 * a different sum from the one the decision compares.
 *
 * <p><b>Bounds</b> (beyond the seeds): each latency is an {@link Estimate}; observed values are
 * exact, predictions carry the model's interval (Romano's 95 % prediction interval, a fitted LQ
 * line's), and an observed latency shifted by a predicted change carries the change's error where
 * the model knows it (the LQ line: {@link Prediction#relativeChangeError}). Eqs. 10
 * and 11 are monotone in every latency, so their bounds are the equations at the pessimistic
 * and optimistic ends. A move is worthwhile when the benefit's lower bound exceeds the cost's
 * upper bound ({@link BalancingSettings#costBenefitOnBounds()}), else when benefit &gt; cost.
 */
public final class CostBenefit {

    /** Outstanding IOs at or below which a datastore counts as idle (sums of medians leave rounding dust). */
    private static final double IDLE_OIO = 1e-9;

    /**
     * The outcome for one move: cost (Eq. 10, over the copy's {@code migrationSeconds}) and benefit (Eq. 11, over the
     * invocation period's {@code periodSeconds}) in ms·OIO·s; {@code outstandingIos}, the pair's outstanding IOs both
     * equations weigh by (the moved disk's included).
     */
    public record Result(Estimate cost, Estimate benefit, double migrationSeconds, double periodSeconds, double outstandingIos,
                         DatastoreForecast source, DatastoreForecast destination, boolean worthwhile) {

        /** Benefit's lower bound minus cost's upper bound: how safely the move pays. */
        public double margin() {
            return benefit.lower() - cost.upper();
        }

        /**
         * The cost-benefit as an administrator reads it, once: the mean latency change per outstanding IO
         * of the pair over the period and during the copy (see the class comment), then both totals in
         * their unit at a readable magnitude: "the pair's 34 outstanding IOs wait 6.6 ms less on average
         * for the 16-h period and 2.1 ms more during the ~9-min copy (mean of p50, p70, p90; Pesto Eqs.
         * 10–11: benefit 86.2 M ≥ cost 871 k ms·OIO·s)". "≥" when the move pays as the settings judge
         * it, "vs" when it does not (a move a rule or maintenance requires).
         */
        public String describe() {
            String totals = String.format(Locale.ROOT, "Pesto Eqs. 10–11: benefit %s %s cost %s ms·OIO·s", magnitude(benefit),
                    worthwhile ? "≥" : "vs", magnitude(cost));
            if (!(outstandingIos > 0)) {
                return "no VM IO on either datastore, so no IO waits more or less (" + totals + ")";
            }
            double gained = benefit.value() / periodSeconds / 3 / outstandingIos;
            double paid = cost.value() / migrationSeconds / 3 / outstandingIos;
            return String.format(Locale.ROOT, "the pair's %s outstanding IOs wait %s ms %s on average for the %s period "
                            + "and %s ms %s during the ~%s copy (mean of p50, p70, p90; %s)",
                    count(outstandingIos), Estimate.ms(Math.abs(gained)), gained >= 0 ? "less" : "more", duration(periodSeconds),
                    Estimate.ms(Math.abs(paid)), paid >= 0 ? "more" : "less", duration(migrationSeconds), totals);
        }
    }

    /**
     * Why a move does not pay, in the unit of {@link Result#describe}: the benefit's lower bound and the cost's upper
     * bound as mean latency changes per outstanding IO of the pair, "a gain of at least −0.41 ms per outstanding IO
     * for the 16-h period against at most 1.20 ms during the ~4-min copy".
     */
    static String describeRefusal(Result r) {
        if (!(r.outstandingIos() > 0)) {
            return "no VM IO on either datastore, so no IO gains from it";
        }
        double gained = r.benefit().lower() / r.periodSeconds() / 3 / r.outstandingIos();
        double paid = r.cost().upper() / r.migrationSeconds() / 3 / r.outstandingIos();
        return String.format(Locale.ROOT, "a gain of at least %s ms per outstanding IO for the %s period against at most %s ms"
                        + " during the ~%s copy", (gained < 0 ? "−" : "") + Estimate.ms(Math.abs(gained)), duration(r.periodSeconds()),
                (paid < 0 ? "−" : "") + Estimate.ms(Math.abs(paid)), duration(r.migrationSeconds()));
    }

    /** "86.2 M", "871 k", "3.1": three significant digits with an SI prefix; an interval as "518 M [476 M, 560 M]". */
    static String magnitude(Estimate e) {
        return e.hasInterval() ? magnitude(e.value()) + " [" + magnitude(e.lower()) + ", " + magnitude(e.upper()) + "]"
                : magnitude(e.value());
    }

    static String magnitude(double v) {
        double a = Math.abs(v);
        String[] prefixes = {"", " k", " M", " G", " T"};
        int k = 0;
        while (a >= 999.5 && k < prefixes.length - 1) {
            a /= 1000;
            k++;
        }
        String digits = a == 0 ? "0" : a >= 99.95 ? String.format(Locale.ROOT, "%.0f", a)
                : a >= 9.995 ? String.format(Locale.ROOT, "%.1f", a) : String.format(Locale.ROOT, "%.2f", a);
        return (v < 0 ? "−" : "") + digits + prefixes[k];
    }

    /** "34", "2.5": a count of outstanding IOs (a median may be fractional). */
    private static String count(double q) {
        return Math.abs(q - Math.rint(q)) < 0.05 ? String.format(Locale.ROOT, "%.0f", q) : String.format(Locale.ROOT, "%.1f", q);
    }

    /** "45-s", "9-min", "16-h": a duration as an adjective. */
    static String duration(double seconds) {
        if (seconds < 90) {
            return String.format(Locale.ROOT, "%.0f-s", seconds);
        }
        if (seconds < 90 * 60) {
            return String.format(Locale.ROOT, "%.0f-min", seconds / 60);
        }
        double h = seconds / 3600;
        return (Math.abs(h - Math.rint(h)) < 0.05 ? String.format(Locale.ROOT, "%.0f", h) : String.format(Locale.ROOT, "%.1f", h)) + "-h";
    }

    private final WorkingPlacement p;
    private final BalancingSettings settings;
    private final Workload copyRead;
    private final Workload copyWrite;
    private final Prediction[] withCopyRead;
    private final Prediction[] withCopyWrite;
    private final long[] readVersion;
    private final long[] writeVersion;

    public CostBenefit(WorkingPlacement placement) {
        this.p = placement;
        this.settings = placement.settings();
        double q = settings.migrationOutstandingIos();
        double z = settings.migrationIoSizeKb();
        this.copyRead = new Workload(q, z, 1, 0);
        this.copyWrite = new Workload(q, z, 0, 0);
        int n = placement.datastoreCount();
        withCopyRead = new Prediction[n];
        withCopyWrite = new Prediction[n];
        readVersion = new long[n];
        writeVersion = new long[n];
    }

    public Result evaluate(MovableUnit unit, int source, int destination) {
        return evaluate(unit, source, destination, p.load(source).predictWith(null, unit.disks(), null));
    }

    /** As {@link #evaluate(MovableUnit, int, int)} with the source's after-move prediction already known. */
    public Result evaluate(MovableUnit unit, int source, int destination, Prediction sourceAfter) {
        Prediction sourceBefore = p.prediction(source);
        Prediction destinationBefore = p.prediction(destination);
        Prediction destinationAfter = p.load(destination).predictWith(unit.disks(), null, null);
        double[] sp = p.percentiles(source);
        double[] dp = p.percentiles(destination);
        boolean sObs = p.hasObservedPercentiles(source);
        boolean dObs = p.hasObservedPercentiles(destination);
        double qSrcBefore = p.load(source).outstandingIos();
        double qSrc = Math.max(0, qSrcBefore - unit.outstandingIos());
        double qDst = p.load(destination).outstandingIos();
        double qMig = unit.outstandingIos();
        Prediction srcCopy = copyLoad(source, true);
        Prediction dstCopy = copyLoad(destination, false);

        double bLo = 0, bPt = 0, bHi = 0, cLo = 0, cPt = 0, cHi = 0;
        for (int k = 0; k < 3; k++) {
            Estimate lsb = sObs ? Estimate.exact(sp[k]) : estimate(sourceBefore);
            Estimate lsa = anchored(sourceAfter, sourceBefore, sp[k], sObs);
            Estimate ldb = dObs ? Estimate.exact(dp[k]) : estimate(destinationBefore);
            Estimate lda = anchored(destinationAfter, destinationBefore, dp[k], dObs);
            // Eq. 11 — pessimistic end: sources' before low, afters high.
            bLo += qSrc * (lsb.lower() - lsa.upper()) - qDst * (lda.upper() - ldb.lower()) + qMig * (lsb.lower() - lda.upper());
            bPt += qSrc * (lsb.value() - lsa.value()) - qDst * (lda.value() - ldb.value()) + qMig * (lsb.value() - lda.value());
            bHi += qSrc * (lsb.upper() - lsa.lower()) - qDst * (lda.lower() - ldb.upper()) + qMig * (lsb.upper() - lda.lower());
            // Eq. 10: the copy's IOs raise both datastores' latency.
            Estimate dls = increase(srcCopy, sourceBefore, sp[k]);
            Estimate dld = increase(dstCopy, destinationBefore, dp[k]);
            cLo += qSrcBefore * dls.lower() + qDst * dld.lower();
            cPt += qSrcBefore * dls.value() + qDst * dld.value();
            cHi += qSrcBefore * dls.upper() + qDst * dld.upper();
        }
        double seconds = migrationSeconds(unit.sizeGb(), srcCopy, dstCopy);
        double period = settings.invocationPeriodHours() * 3600;
        Estimate cost = new Estimate(cPt * seconds, Math.min(cLo, cPt) * seconds, Math.max(cHi, cPt) * seconds);
        Estimate benefit = new Estimate(bPt * period, Math.min(bLo, bPt) * period, Math.max(bHi, bPt) * period);
        boolean worthwhile = settings.costBenefitOnBounds() ? benefit.lower() > cost.upper() : benefit.value() > cost.value();
        // a datastore without outstanding IOs has no latency an IO sees: its forecasts say so ("idle")
        DatastoreForecast src = new DatastoreForecast(p.datastoreId(source), p.modelName(source), estimate(sourceBefore),
                estimate(sourceAfter), sp[2], p.percentilesFor(source, sourceAfter.latencyMs())[2], !(qSrcBefore > IDLE_OIO),
                !(qSrc > IDLE_OIO));
        DatastoreForecast dst = new DatastoreForecast(p.datastoreId(destination), p.modelName(destination),
                estimate(destinationBefore), estimate(destinationAfter), dp[2],
                p.percentilesFor(destination, destinationAfter.latencyMs())[2], !(qDst > IDLE_OIO), !(qDst + qMig > IDLE_OIO));
        return new Result(cost, benefit, seconds, period, qSrcBefore + qDst, src, dst, worthwhile);
    }

    /**
     * Beyond the seeds: whether the move is predicted to raise the latency the VMs' IOs see. The
     * workloads are closed loops of fixed outstanding IOs, so Σ O is the same wherever the disks
     * are, and the cluster's per-IO latency Σ O / Σ IOPS (Little's law) rises exactly when the
     * pair's IO rate falls ({@link WorkingPlacement#rateAfter}: each disk's observed rate, changed
     * as its datastore's model latency changes). The unweighted sum of the two datastores' latencies
     * is not that: between two devices of similar LQ slope the source falls by about what the
     * destination rises, so once the destination carries load every further move reads as a wash
     * or a loss, however hot the source; and a fast disk arriving lowers a datastore's IO-weighted
     * mean without making any IO faster, while a busy fast disk leaving one raises it.
     */
    public boolean raisesPerIoLatency(MovableUnit unit, int source, int destination, Result r) {
        double[] rates = pairRates(unit, source, destination, r);
        return !(rates[1] > rates[0] * (1 + 1e-9));
    }

    /** The pair's IO rate (IOPS) now and as predicted after the move: {before, after} ({@link #raisesPerIoLatency}). */
    public double[] pairRates(MovableUnit unit, int source, int destination, Result r) {
        double before = p.ioRate(source) + p.ioRate(destination);
        double[] after = p.rateAfter(unit.disks(), source, destination, r.source().latencyAfterMs().value(),
                r.destination().latencyAfterMs().value());
        return new double[] {before, after[0] + after[1]};
    }

    /**
     * Copy duration: size over the lower of the copy's IOPS at source and destination, each
     * Q_mig / L (Little's law) with L the latency predicted there with the copy's IOs added.
     */
    public double migrationSeconds(double sizeGb, Prediction sourceWithCopy, Prediction destinationWithCopy) {
        double q = settings.migrationOutstandingIos();
        double iops = 1000 * Math.min(q / sourceWithCopy.latencyMs(), q / destinationWithCopy.latencyMs());
        if (!(iops > 0) || Double.isInfinite(iops)) {
            throw new IllegalStateException("copy IOPS not positive and finite (" + iops + "): model latencies "
                    + sourceWithCopy.latencyMs() + " / " + destinationWithCopy.latencyMs() + " ms");
        }
        return sizeGb * 1024 * 1024 / settings.migrationIoSizeKb() / iops;
    }

    /** Datastore j's prediction with the copy's IOs added: reading (the source's side) or writing (the destination's). */
    public Prediction copyLoad(int j, boolean read) {
        long v = p.load(j).version();
        if (read) {
            if (withCopyRead[j] == null || readVersion[j] != v) {
                withCopyRead[j] = p.load(j).predictWith(null, null, copyRead);
                readVersion[j] = v;
            }
            return withCopyRead[j];
        }
        if (withCopyWrite[j] == null || writeVersion[j] != v) {
            withCopyWrite[j] = p.load(j).predictWith(null, null, copyWrite);
            writeVersion[j] = v;
        }
        return withCopyWrite[j];
    }

    /** A prediction as an estimate: its interval when it has one (widened to contain the point). */
    public static Estimate estimate(Prediction prediction) {
        double v = prediction.latencyMs();
        if (prediction.latencyInterval().isEmpty()) {
            return Estimate.exact(v);
        }
        Interval i = prediction.latencyInterval().get();
        return new Estimate(v, Math.min(i.lower(), v), Math.max(i.upper(), v));
    }

    /**
     * A latency after a change: the current one shifted by the model's predicted change. Where the
     * current latency is observed and the model knows the error of its changes
     * ({@link Prediction#relativeChangeError}), the bounds are the change's; otherwise they are the
     * after-prediction's interval shifted (a level's error, which is all an unobserved datastore has).
     */
    public static Estimate anchored(Prediction after, Prediction before, double current, boolean observed) {
        double shift = current - before.latencyMs();
        double r = changeError(after, before);
        if (observed && !Double.isNaN(r)) {
            double change = after.latencyMs() - before.latencyMs();
            double half = r * Math.abs(change);
            return new Estimate(Math.max(0, current + change), Math.max(0, current + change - half),
                    Math.max(0, current + change + half));
        }
        Estimate e = estimate(after);
        return new Estimate(Math.max(0, e.value() + shift), Math.max(0, e.lower() + shift), Math.max(0, e.upper() + shift));
    }

    /**
     * The latency increase when the load becomes {@code with} (from {@code before}): with the
     * change's error when the model knows it, else with the interval of {@code with}. The copy only
     * adds IOs, so the increase's lower bound is never below zero (a level interval reaching below
     * the current latency would otherwise show the copy as speeding the datastore up).
     */
    public static Estimate increase(Prediction with, Prediction before, double currentPercentile) {
        double base = before.latencyMs();
        double r = changeError(with, before);
        Estimate e;
        if (!Double.isNaN(r)) {
            double change = with.latencyMs() - base;
            e = new Estimate(change, change - r * Math.abs(change), change + r * Math.abs(change));
        } else {
            Estimate level = estimate(with);
            e = new Estimate(level.value() - base, level.lower() - base, level.upper() - base);
        }
        return new Estimate(e.value(), Math.min(e.value(), Math.max(0, e.lower())), e.upper());
    }

    /** The relative error of the change between two predictions of one model; NaN when either lacks it. */
    private static double changeError(Prediction a, Prediction b) {
        return Math.max(a.relativeChangeError(), b.relativeChangeError());
    }
}
