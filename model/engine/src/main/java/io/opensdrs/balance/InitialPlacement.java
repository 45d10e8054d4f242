package io.opensdrs.balance;

import io.opensdrs.balance.basil.NormalizedLoadGreedy;
import io.opensdrs.balance.pesto.CostBenefit;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Initial placement, an API like vSphere's {@code RecommendDatastores} (reason
 * {@code storagePlacement}): where should a new VM's disks go?
 * <ul>
 *   <li>{@link Objective#PESTO_BALANCE} (Pesto §5.4.2): a new disk has no workload model yet,
 *       and all-zero statistics would pile every new disk onto one datastore, so it is given the
 *       average workload of the existing disks; the datastore whose placement leaves the
 *       predicted latencies most balanced (least variance) wins.</li>
 *   <li>{@link Objective#BASIL_MIN_NORMALIZED_LOAD} (BASIL §4): the datastore with the least
 *       normalized load N_j = ΣL_i/P_j after the hard constraints.</li>
 * </ul>
 * Every candidate passes {@link RuleChecker}; kept-together VMs get one datastore for all
 * their disks, others one per disk, placed largest first. Each recommendation lists the
 * alternatives, best first.
 */
public final class InitialPlacement {

    /** How the best datastore is chosen. */
    public enum Objective { PESTO_BALANCE, BASIL_MIN_NORMALIZED_LOAD }

    /** A disk to place; {@code workload} null = unknown (the cluster's average is used). */
    public record NewDisk(String id, double sizeGb, Workload workload) {
    }

    /**
     * A VM to place: its host, disks, keep-together (null = cluster default), the rules it joins and
     * its home's size — configuration files and the swap file a powered-on VM gets (its memory less
     * its reservation) — which lands with its kept-together disks and counts against the space threshold.
     */
    public record NewVm(String id, String hostId, Boolean keepTogether, List<NewDisk> disks, List<Rule> rules, double homeGb) {
        public NewVm {
            disks = List.copyOf(disks);
            rules = rules == null ? List.of() : List.copyOf(rules);
            if (!(homeGb >= 0) || Double.isInfinite(homeGb)) {
                throw new IllegalArgumentException("new VM " + id + ": homeGb must be >= 0, got " + homeGb);
            }
        }
    }

    /** One placement: disks → datastore, with the ranked alternatives and the explanation. */
    public record Recommendation(String vmId, List<String> diskIds, String datastoreId, List<String> rankedDatastores,
                                 Explanation explanation) {
    }

    public record Result(List<Recommendation> recommendations, List<Fault> faults) {
    }

    /** Holds the new disks while they are being placed; never a destination. */
    static final String UNPLACED = "__unplaced__";

    private InitialPlacement() {
    }

    /** The cluster's average disk workload (Pesto §5.4.2), or one 4 KiB random-read OIO when it has no disks. */
    public static Workload averageWorkload(ClusterState state) {
        double o = 0, z = 0, r = 0, x = 0;
        int n = 0;
        for (VmState vm : state.vms()) {
            for (DiskState d : vm.disks()) {
                o += d.workload().outstandingIos();
                z += d.workload().ioSizeKb();
                r += d.workload().readFraction();
                x += d.workload().randomFraction();
                n++;
            }
        }
        return n == 0 ? Workload.randomRead4k(1) : new Workload(o / n, z / n, r / n, x / n);
    }

    public static Result recommendDatastores(ClusterState state, NewVm request, Objective objective) {
        Workload average = averageWorkload(state);
        List<DiskState> disks = new ArrayList<>();
        for (NewDisk d : request.disks()) {
            disks.add(new DiskState(d.id(), d.sizeGb(), UNPLACED, d.workload() != null ? d.workload() : average, 0));
        }
        List<DatastoreState> datastores = new ArrayList<>(state.datastores());
        datastores.add(new DatastoreState(UNPLACED, Double.MAX_VALUE / 4, 0, false, MaintenanceState.NORMAL,
                LqSlopeModel.of(1, 0), null));
        List<VmState> vms = new ArrayList<>(state.vms());
        vms.add(new VmState(request.id(), request.hostId(), VmOverride.DEFAULT, request.keepTogether(), disks, UNPLACED, request.homeGb()));
        List<Rule> rules = new ArrayList<>(state.rules());
        rules.addAll(request.rules());
        ClusterState extended = new ClusterState(state.clusterId(), datastores, state.hosts(), vms, rules, state.settings(), state.names());
        WorkingPlacement p = new WorkingPlacement(extended);
        int unplaced = p.datastoreIndex(UNPLACED);
        int vm = p.vmCount() - 1;
        List<MovableUnit> units = new ArrayList<>(p.unitsOf(vm));
        units.sort(Comparator.comparingDouble((MovableUnit u) -> -u.sizeGb()));
        ToDoubleFunction<Workload> metric = NormalizedLoadGreedy.workloadMetric(state);
        double[] perf = objective == Objective.BASIL_MIN_NORMALIZED_LOAD ? NormalizedLoadGreedy.devicePerformance(p) : null;
        CostBenefit forecasts = new CostBenefit(p);
        List<Recommendation> out = new ArrayList<>();
        List<Fault> faults = new ArrayList<>();
        for (MovableUnit u : units) {
            double[] score = new double[p.datastoreCount()];
            List<Integer> allowed = new ArrayList<>();
            Set<String> reasons = new LinkedHashSet<>();
            double[] lat = p.latencies();
            double s1 = 0, s2 = 0;
            int counted = 0;
            for (int j = 0; j < p.datastoreCount(); j++) {
                if (j != unplaced && p.acceptsDisks(j)) {
                    s1 += lat[j];
                    s2 += lat[j] * lat[j];
                    counted++;
                }
            }
            for (int j = 0; j < p.datastoreCount(); j++) {
                if (j == unplaced) {
                    continue;
                }
                String why = RuleChecker.check(p, vm, u.disks(), j, false);
                if (why != null) {
                    reasons.add(why);
                    continue;
                }
                allowed.add(j);
                if (perf != null) {
                    double l = 0;
                    for (int i = 0; i < p.diskCount(); i++) {
                        if (p.diskDatastore(i) == j) {
                            l += metric.applyAsDouble(p.diskWorkload(i));
                        }
                    }
                    score[j] = l / perf[j];
                } else {
                    double after = p.load(j).predictWith(u.disks(), null, null).latencyMs();
                    double t1 = s1 - lat[j] + after;
                    double t2 = s2 - lat[j] * lat[j] + after * after;
                    score[j] = t2 / counted - (t1 / counted) * (t1 / counted);
                }
            }
            List<String> diskIds = new ArrayList<>();
            for (int i : u.disks()) {
                diskIds.add(p.diskId(i));
            }
            if (allowed.isEmpty()) {
                faults.add(new Fault(request.id(), String.join(",", diskIds), null, ReasonCode.STORAGE_PLACEMENT,
                        "no datastore can take " + String.join(", ", diskIds) + ": " + String.join("; ", reasons)));
                continue;
            }
            allowed.sort(Comparator.comparingDouble(j -> score[j]));
            int best = allowed.get(0);
            CostBenefit.Result r = forecasts.evaluate(u, unplaced, best);
            List<String> ranked = new ArrayList<>();
            allowed.forEach(j -> ranked.add(p.datastoreId(j)));
            String summary = String.format(Locale.ROOT, "%s: %s on %s%s; predicted latency %s (%s)",
                    objective == Objective.PESTO_BALANCE ? "most balanced placement (Pesto §5.4.2)"
                            : "least normalized load (BASIL §4)",
                    String.join(", ", diskIds), p.datastoreName(best),
                    request.disks().stream().anyMatch(d -> d.workload() == null) ? ", workload unknown: cluster average used" : "",
                    r.destination().latencyChange(), r.destination().model());
            out.add(new Recommendation(request.id(), diskIds, p.datastoreId(best), ranked,
                    new Explanation(summary, List.of(r.destination()))));
            p.move(u.disks(), best);
        }
        return new Result(out, faults);
    }
}
