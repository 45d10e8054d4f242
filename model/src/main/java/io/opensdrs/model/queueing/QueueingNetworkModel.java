package io.opensdrs.model.queueing;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.Observation;
import io.opensdrs.model.OioWeightedAggregation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The I/O queueing model of Noorshams et al. (SPEC §3.4) for one datastore: a closed network
 * (§IV-C.1) with one class per stream of requests — random/sequential × read/write
 * ({@link RequestClass}), its threads the class's population, no think time (each thread issues
 * its next request as soon as the last completes, §IV-A.1) — and two load-dependent stations:
 * the storage server's cache, visited by every request, and the RAID array, visited by a cache
 * miss with the split probability p1 (§IV-D.2, Fig. 8). A class whose response times show no
 * separate cache and RAID modes has the cache station only (Fig. 6).
 *
 * <p>Each station's mean service time per visit is load dependent (§IV-C.2): μ(t, s, f) with the
 * terms of Eq. 2 — Eq. 1's c1·t·s + c2·t + c3·s + c4, each also times ln f where the working-set
 * (file set) size f varies in the calibration — terms with p > 0.05 pruned
 * ({@link ServiceTimeRegression}). The network is solved by MVA ({@link MeanValueAnalysis#approximate}):
 * every class's μ is evaluated at the load all classes put on the station, so a mix of streams
 * (several VMs, §V-C) is predicted by the network and not by adding latencies. The paper solves
 * its network by simulation (§IV).
 *
 * <p><b>Calibration from response times only</b> ({@link #calibrate}, §IV-C.2, §IV-D.2): per
 * class, measurements over threads, request sizes and file-set sizes. With t threads and mean
 * response time R the throughput is X = t/R (Little); where a point's response times separate
 * into a cache mode (share h, mean R_h) and a RAID mode, p1 = 1 − h, the cache visit takes R_h,
 * a RAID visit (R − R_h)/p1, and the stations hold n_cache = X·R_h and n_raid = t − n_cache
 * requests. Each μ is fitted against the load an arriving request finds, 1 + n·(t − 1)/t
 * (Schweitzer's arrival estimate, the one the solver applies), so that calibrating and solving
 * agree; with one station that load is t and μ is the response time itself, as in the paper.
 * Random reads get the paper's two thread regimes, s1 up to 30 requests at the station and s2
 * above ({@link LoadRegimes}); the other classes' cases are cached and uncached data, which the
 * ln f terms carry. p1 is fitted with Eq. 2's terms (the paper uses one mean per regime).
 *
 * <p>Through {@link DatastoreModel} the model sees {@link Workload}s, which carry no working set:
 * it uses the size given at construction for every observation and prediction (the datastore's
 * used capacity, which vCenter reports), or none, so that μ takes Eq. 1's form.
 */
public final class QueueingNetworkModel implements DatastoreModel {

    public static final String NAME = "queueing";
    static final double PRUNE_ABOVE = 0.05;
    /** A class has a RAID station when its mean miss share lies in this band; outside it one mode dominates. */
    static final double MIN_SPLIT = 0.05;

    /** The fitted stations of one request class. */
    record ClassStations(LoadRegimes cache, LoadRegimes raid, ServiceTimeRegression missShare,
                         double cacheFloorMs, double raidFloorMs) {
        boolean twoStations() {
            return raid != null;
        }

        double missShare(double threads, double size, double fileSet) {
            return raid == null ? 0 : Math.min(1, Math.max(0, missShare.serviceTimeMs(threads, size, fileSet)));
        }
    }

    /** Per class of a solved network: response time and throughput; and the datastore's IO-weighted mean response time. */
    public record Solution(List<ClassLoad> classes, double[] responseTimeMs, double[] throughputPerMs, double meanResponseMs) {
    }

    private final double workingSetGb;
    private final Map<RequestClass, ClassStations> stations = new EnumMap<>(RequestClass.class);

    /** Without a working-set size: μ takes Eq. 1's form. */
    public QueueingNetworkModel() {
        this.workingSetGb = Double.NaN;
    }

    /** With the datastore's working-set size, used for every observation and prediction through {@link DatastoreModel}. */
    public QueueingNetworkModel(double workingSetGb) {
        if (!(workingSetGb > 0) || Double.isInfinite(workingSetGb)) {
            throw new IllegalArgumentException("working set (working_set_gb) must be a finite number > 0, got " + workingSetGb);
        }
        this.workingSetGb = workingSetGb;
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Calibrates every class present in {@code points} (at least 6 points per class, several
     * thread counts), replacing earlier calibrations.
     *
     * @return per class and station the kept terms and coefficients, in the paper's notation
     * @throws IllegalArgumentException when a class's points cannot support a fit (named)
     */
    public Map<String, Double> calibrate(List<CalibrationPoint> points) {
        Map<RequestClass, List<CalibrationPoint>> byClass = new EnumMap<>(RequestClass.class);
        for (CalibrationPoint p : points) {
            byClass.computeIfAbsent(p.requestClass(), k -> new ArrayList<>()).add(p);
        }
        if (byClass.isEmpty()) {
            throw new IllegalArgumentException("queueing calibration needs measurements, got none");
        }
        Map<RequestClass, ClassStations> fitted = new EnumMap<>(RequestClass.class);
        Map<String, Double> parameters = new LinkedHashMap<>();
        for (Map.Entry<RequestClass, List<CalibrationPoint>> e : byClass.entrySet()) {
            String prefix = e.getKey().name().toLowerCase(Locale.ROOT) + ".";
            try {
                ClassStations s = calibrateClass(e.getValue());
                fitted.put(e.getKey(), s);
                s.cache().describe(prefix + "cache.", parameters);
                if (s.twoStations()) {
                    s.raid().describe(prefix + "raid.", parameters);
                    LoadRegimes.describe(prefix + "p1.", s.missShare(), parameters);
                }
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(e.getKey().name().toLowerCase(Locale.ROOT) + ": " + ex.getMessage(), ex);
            }
        }
        stations.clear();
        stations.putAll(fitted);
        return parameters;
    }

    private static ClassStations calibrateClass(List<CalibrationPoint> ps) {
        int n = ps.size();
        boolean separated = ps.stream().allMatch(CalibrationPoint::separated);
        double meanMiss = separated ? ps.stream().mapToDouble(p -> 1 - p.hitShare()).average().orElse(0) : 0;
        double[] t = new double[n];
        double[] s = new double[n];
        double[] f = new double[n];
        double[] r = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = ps.get(i).threads();
            s[i] = ps.get(i).sizeKb();
            f[i] = ps.get(i).fileSetGb();
            r[i] = ps.get(i).responseMs();
        }
        if (separated && meanMiss >= MIN_SPLIT && meanMiss <= 1 - MIN_SPLIT) {
            ClassStations two = twoStations(ps, t, s, f);
            if (two != null) {
                return two;
            }
        }
        // Fig. 6: one station holding all t clients; μ(t) is the response time (§IV-C.2)
        LoadRegimes cache = LoadRegimes.calibrate(t, s, f, r, PRUNE_ABOVE, splitsByLoad(ps));
        return new ClassStations(cache, null, null, floor(r), Double.NaN);
    }

    /** Fig. 8: cache then RAID; null when too few points reached the RAID mode to fit its station. */
    private static ClassStations twoStations(List<CalibrationPoint> ps, double[] t, double[] s, double[] f) {
        int n = ps.size();
        double[] aCache = new double[n];
        double[] rCache = new double[n];
        double[] miss = new double[n];
        List<double[]> raidRows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CalibrationPoint p = ps.get(i);
            double x = p.threads() / p.responseMs();
            double hitMs = p.hitShare() > 0 ? p.hitResponseMs() : p.responseMs();
            miss[i] = 1 - p.hitShare();
            double cacheVisit = Math.min(hitMs, p.responseMs());
            double nCache = x * cacheVisit;
            aCache[i] = arrivalLoad(nCache, p.threads());
            rCache[i] = cacheVisit;
            if (miss[i] >= 0.02 && p.responseMs() > cacheVisit) {
                double raidVisit = (p.responseMs() - cacheVisit) / miss[i];
                double nRaid = Math.max(0, p.threads() - nCache);
                raidRows.add(new double[] {arrivalLoad(nRaid, p.threads()), p.sizeKb(), p.fileSetGb(), raidVisit});
            }
        }
        if (raidRows.size() < n / 2 || raidRows.size() < 8) {
            return null;
        }
        LoadRegimes cache = LoadRegimes.calibrate(aCache, s, f, rCache, PRUNE_ABOVE, splitsByLoad(ps));
        double[][] cols = new double[4][raidRows.size()];
        for (int i = 0; i < raidRows.size(); i++) {
            for (int c = 0; c < 4; c++) {
                cols[c][i] = raidRows.get(i)[c];
            }
        }
        LoadRegimes raid = LoadRegimes.calibrate(cols[0], cols[1], cols[2], cols[3], PRUNE_ABOVE, splitsByLoad(ps));
        ServiceTimeRegression p1 = ServiceTimeRegression.calibrate(t, s, f, miss, ServiceTimeRegression.equation2Terms(), PRUNE_ABOVE);
        return new ClassStations(cache, raid, p1, floor(rCache), floor(cols[3]));
    }

    /** The paper's thread regimes s1/s2 (§IV-D.2) are those of random reads. */
    private static boolean splitsByLoad(List<CalibrationPoint> ps) {
        return ps.get(0).requestClass() == RequestClass.RANDOM_READ;
    }

    /** Schweitzer's estimate of the load an arriving request finds, itself included: 1 + n·(t − 1)/t. */
    static double arrivalLoad(double atStation, double threads) {
        return 1 + atStation * (threads - 1) / threads;
    }

    /** A fitted polynomial may dip below zero outside its data: a visit never takes less than a tenth of the fastest measured. */
    private static double floor(double[] visits) {
        double min = Double.POSITIVE_INFINITY;
        for (double v : visits) {
            min = Math.min(min, v);
        }
        return Math.max(1e-4, min / 10);
    }

    /** The request classes calibrated so far. */
    public java.util.Set<RequestClass> calibratedClasses() {
        return java.util.Collections.unmodifiableSet(stations.keySet());
    }

    /**
     * Solves the network for the given classes sharing the datastore's cache and RAID stations
     * over a working set of {@code fileSetGb}. A class never calibrated is answered as the
     * calibrated class that is slowest alone at its load — an upper bound rather than no answer
     * (the injector calibrates random reads; a balancer also asks about a storage vMotion's copy).
     */
    public Solution solve(List<ClassLoad> classes, double fileSetGb) {
        if (stations.isEmpty()) {
            throw new IllegalStateException("queueing model is not fitted");
        }
        List<ClassLoad> active = classes.stream().filter(c -> c.threads() > 0).toList();
        if (active.isEmpty()) {
            return new Solution(List.of(), new double[0], new double[0], 0);
        }
        int m = active.size();
        Station[][] st = new Station[2][m];
        double[][] visits = new double[2][m];
        double[] pop = new double[m];
        double[] think = new double[m];
        for (int c = 0; c < m; c++) {
            ClassLoad load = active.get(c);
            ClassStations cs = stationsFor(load, fileSetGb);
            double size = load.sizeKb();
            st[0][c] = Station.flowEquivalent(a -> cs.cache().serviceTimeMs(a, size, fileSetGb), cs.cacheFloorMs());
            visits[0][c] = 1;
            if (cs.twoStations()) {
                st[1][c] = Station.flowEquivalent(a -> cs.raid().serviceTimeMs(a, size, fileSetGb), cs.raidFloorMs());
                visits[1][c] = cs.missShare(load.threads(), size, fileSetGb);
            } else {
                st[1][c] = Station.delay(1);
                visits[1][c] = 0;
            }
            pop[c] = load.threads();
        }
        MeanValueAnalysis.Solution s = MeanValueAnalysis.approximate(st, visits, pop, think);
        double threads = 0;
        double x = 0;
        for (int c = 0; c < m; c++) {
            threads += pop[c];
            x += s.throughputPerMs()[c];
        }
        return new Solution(active, s.responseTimeMs(), s.throughputPerMs(), threads / x);
    }

    private ClassStations stationsFor(ClassLoad load, double fileSetGb) {
        ClassStations cs = stations.get(load.requestClass());
        if (cs != null) {
            return cs;
        }
        ClassStations slowest = null;
        double worst = -1;
        for (Map.Entry<RequestClass, ClassStations> e : stations.entrySet()) {
            double r = solve(List.of(new ClassLoad(e.getKey(), load.threads(), load.sizeKb())), fileSetGb).meanResponseMs();
            if (r > worst) {
                worst = r;
                slowest = e.getValue();
            }
        }
        return slowest;
    }

    private double fileSet() {
        return Double.isNaN(workingSetGb) ? 1 : workingSetGb;
    }

    /** Fits from mean latencies (no separated modes): one station per class; points with fewer than one outstanding IO are left out. */
    @Override
    public FitSummary fit(List<Observation> observations) {
        List<CalibrationPoint> points = new ArrayList<>();
        List<Observation> used = new ArrayList<>();
        for (Observation o : observations) {
            if (o.outstandingIos() >= 1) {
                points.add(CalibrationPoint.mean(RequestClass.of(o.workload()), o.outstandingIos(), o.workload().ioSizeKb(),
                        fileSet(), o.latencyMs()));
                used.add(o);
            }
        }
        Map<String, Double> parameters = calibrate(points);
        return new FitSummary(NAME, rSquared(used), parameters, used.size());
    }

    @Override
    public boolean isFitted() {
        return !stations.isEmpty();
    }

    /** True when all four request classes were calibrated: predictions for writes and sequential streams rest on their own measurements. */
    @Override
    public boolean isCalibrated() {
        return stations.size() == RequestClass.values().length;
    }

    /** Outstanding IOs add up and request size is averaged weighted by them. */
    @Override
    public Workload aggregate(List<Workload> workloads) {
        return OioWeightedAggregation.aggregate(workloads);
    }

    /**
     * A datastore's disks as one class, their aggregate ({@link #aggregate}), solved by the
     * network. Not one class per disk (§V-C, {@link #solve} with several classes): each class's
     * service time is a function of the number of requests at the station, fitted from runs of
     * that class alone, so a 4-KiB class beside 1-MiB streams would be served as if the station
     * held only 4-KiB requests, and a mix of sizes on a device bound by its bytes in flight would be
     * predicted several times too fast.
     */
    @Override
    public Prediction predict(Workload workload) {
        if (workload.outstandingIos() == 0) {
            // an idle datastore: the response time one request would see
            return Prediction.of(0, solve(List.of(new ClassLoad(RequestClass.of(workload), 1, workload.ioSizeKb())), fileSet())
                    .meanResponseMs(), null);
        }
        return Prediction.of(workload.outstandingIos(), solve(List.of(new ClassLoad(RequestClass.of(workload),
                workload.outstandingIos(), workload.ioSizeKb())), fileSet()).meanResponseMs(), null);
    }
}
