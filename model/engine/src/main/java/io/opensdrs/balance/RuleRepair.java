package io.opensdrs.balance;

import io.opensdrs.balance.pesto.CostBenefit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Storage DRS corrects the rules the inventory breaks before it balances space and IO (SPEC §4:
 * "violations produce a fix or a fault"): a rule created over VMs or disks already placed
 * together, a disk put somewhere by hand, a VM whose VMDKs are kept together spread over
 * datastores. Each violation gets the move that fixes it, or — when no move can — a fault that
 * says why.
 * <ul>
 *   <li>Keep VMDKs together: the VM's disks join the datastore that makes the fewest bytes copy
 *       (ties: the lower predicted latency), as one move of the whole VM, reason
 *       {@code virtualDiskJointAffin}.</li>
 *   <li>VMDK anti-affinity: of the rule's disks sharing a datastore the largest stays; each other
 *       one goes to the most balanced datastore the rules allow (Pesto §5.4.2, as in an
 *       evacuation), reason {@code virtualDiskAntiAffin}.</li>
 *   <li>VM anti-affinity: of the rule's VMs sharing a datastore, one excluded from Storage DRS
 *       stays, else the one with the most data there; the others' disks there (the whole VM when
 *       its VMDKs are kept together) go to the most balanced datastore the rules allow, reason
 *       {@code virtualDiskAntiAffin}.</li>
 * </ul>
 * The rule-enforcement automation level governs these moves ({@link BalancingSettings#automationFor}).
 * They are not weighed by cost-benefit: a rule is a constraint, not a preference (BASIL §4, hard
 * constraints always hold). Disks on a datastore entering maintenance are left to its evacuation,
 * which places them by the rules.
 */
final class RuleRepair {

    private RuleRepair() {
    }

    static void repair(MovePlanBuilder b, CostBenefit costBenefit) {
        keepTogether(b, costBenefit);
        vmdkAntiAffinity(b, costBenefit);
        vmAntiAffinity(b, costBenefit);
    }

    private static void keepTogether(MovePlanBuilder b, CostBenefit costBenefit) {
        WorkingPlacement p = b.placement();
        for (int v = 0; v < p.vmCount(); v++) {
            int[] disks = p.vmDisks(v);
            if (!p.keepsTogether(v) || disks.length < 2) {
                continue;
            }
            Set<String> on = new LinkedHashSet<>();
            for (int i : disks) {
                on.add(p.datastoreName(p.diskDatastore(i)));
            }
            if (on.size() < 2) {
                continue;
            }
            String violation = "VM " + p.vmName(v) + " keeps its VMDKs together but they are on " + String.join(", ", on);
            // a disk on a datastore entering maintenance gathers too: the evacuation cannot move a kept-together VM
            // that is spread ("fix its placement first"), and the destination is never one leaving
            String blocked = blocked(b, v, disks, false);
            if (blocked != null) {
                b.fault(new Fault(p.vmId(v), null, null, ReasonCode.VIRTUAL_DISK_JOINT_AFFIN, violation + "; " + blocked));
                continue;
            }
            int best = -1;
            int[] bestMoving = null;
            double bestGb = Double.POSITIVE_INFINITY;
            Set<String> reasons = new LinkedHashSet<>();
            double[] latency = p.latencies();
            for (int j = 0; j < p.datastoreCount(); j++) {
                int[] moving = notOn(p, disks, j);
                String why = RuleChecker.check(p, v, moving, j, false);
                if (why != null) {
                    if (reasons.size() < 8) {
                        reasons.add(why);
                    }
                    continue;
                }
                double gb = sizeGb(p, moving);
                if (gb < bestGb - 1e-9 || gb < bestGb + 1e-9 && latency[j] < latency[best]) {
                    best = j;
                    bestMoving = moving;
                    bestGb = gb;
                }
            }
            if (best < 0) {
                b.fault(new Fault(p.vmId(v), null, null, ReasonCode.VIRTUAL_DISK_JOINT_AFFIN,
                        violation + "; no datastore can take them all: " + String.join("; ", reasons)));
                continue;
            }
            // the source a move records: where most of what copies is. The VM
            // gathers as one relocation of the whole VM, its home along: vSphere's intra-VM affinity keeps the
            // .vmx, logs and swap with the VMDKs (a move of disks alone could leave the home apart from them), and
            // vCenter relocates a VM's disks from one source datastore per move of disks alone. The disks
            // already on the destination stay; only what is elsewhere copies
            int source = largestSource(p, bestMoving);
            int[] fromSource = on(p, bestMoving, source);
            MovableUnit unit = p.unit(v, sourceFirst(p, disks, source));
            // the destination's forecast and the copy's cost count every disk that lands; each source's
            // forecast, the disks that leave it (a gather from several lists them all)
            CostBenefit.Result r = costBenefit.evaluate(p.unit(v, bestMoving), source, best,
                    p.load(source).predictWith(null, fromSource, null));
            List<DatastoreForecast> forecasts = new ArrayList<>(List.of(r.source()));
            for (int j : new LinkedHashSet<>(Arrays.stream(bestMoving).map(p::diskDatastore).boxed().toList())) {
                if (j != source) {
                    forecasts.add(costBenefit.evaluate(p.unit(v, on(p, bestMoving, j)), j, best).source());
                }
            }
            forecasts.add(r.destination());
            String summary = String.format(Locale.ROOT, "%s; moving %s (%.1f GB) to %s, where the fewest bytes copy: "
                            + "source %s, destination %s (%s); %s",
                    violation, p.unitName(unit), bestGb, p.datastoreName(best), r.source().latencyChange(),
                    r.destination().latencyChange(), r.destination().model(), r.describe());
            b.add(unit, best, ReasonCode.VIRTUAL_DISK_JOINT_AFFIN, summary, forecasts, r.cost(), r.benefit(), false);
        }
    }

    private static void vmdkAntiAffinity(MovePlanBuilder b, CostBenefit costBenefit) {
        WorkingPlacement p = b.placement();
        for (int r = 0; r < p.vmdkAntiAffinity.length; r++) {
            for (List<Integer> sharing : byDatastore(p, p.vmdkAntiAffinity[r]).values()) {
                if (sharing.size() < 2) {
                    continue;
                }
                sharing.sort(Comparator.comparingDouble((Integer i) -> -p.diskSizeGb(i)));
                int kept = sharing.get(0);
                for (int i : sharing.subList(1, sharing.size())) {
                    int src = p.diskDatastore(i);
                    String violation = "VMDK anti-affinity rule " + p.ruleNames[r] + " is violated: " + p.diskName(i) + " shares "
                            + p.datastoreName(src) + " with " + p.diskName(kept);
                    moveApart(b, costBenefit, p.unit(p.diskVm(i), new int[] {i}), src, violation);
                }
            }
        }
    }

    private static void vmAntiAffinity(MovePlanBuilder b, CostBenefit costBenefit) {
        WorkingPlacement p = b.placement();
        for (int r = 0; r < p.vmAntiAffinity.length; r++) {
            String rule = p.ruleNames[p.vmdkAntiAffinity.length + r];
            for (int j = 0; j < p.datastoreCount(); j++) {
                int ds = j;
                List<Integer> holders = new ArrayList<>();
                for (int v : p.vmAntiAffinity[r]) {
                    if (on(p, p.vmDisks(v), ds).length > 0) {
                        holders.add(v);
                    }
                }
                if (holders.size() < 2) {
                    continue;
                }
                holders.sort(Comparator.comparing((Integer v) -> p.vmOverride(v) != VmOverride.EXCLUDED)
                        .thenComparingDouble(v -> -sizeGb(p, on(p, p.vmDisks(v), ds))));
                int kept = holders.get(0);
                for (int v : holders.subList(1, holders.size())) {
                    String violation = "VM anti-affinity rule " + rule + " is violated: VMs " + p.vmName(v) + " and "
                            + p.vmName(kept) + " share datastore " + p.datastoreName(ds);
                    int[] unitDisks = p.keepsTogether(v) ? p.vmDisks(v) : on(p, p.vmDisks(v), ds);
                    moveApart(b, costBenefit, p.unit(v, sourceFirst(p, unitDisks, ds)), ds, violation);
                }
            }
        }
    }

    /** Moves {@code unit} off {@code src} to the most balanced datastore the rules allow, or reports why it cannot. */
    private static void moveApart(MovePlanBuilder b, CostBenefit costBenefit, MovableUnit unit, int src, String violation) {
        WorkingPlacement p = b.placement();
        String diskId = unit.disks().length == 1 ? p.diskId(unit.disks()[0]) : null;
        String blocked = blocked(b, unit.vm(), unit.disks(), true);
        if (blocked != null) {
            b.fault(new Fault(p.vmId(unit.vm()), diskId, p.datastoreId(src), ReasonCode.VIRTUAL_DISK_ANTI_AFFIN,
                    violation + "; " + blocked));
            return;
        }
        Set<String> reasons = new LinkedHashSet<>();
        int dst = PlacementChoice.mostBalanced(p, unit, src, false, reasons);
        if (dst < 0) {
            b.fault(new Fault(p.vmId(unit.vm()), diskId, p.datastoreId(src), ReasonCode.VIRTUAL_DISK_ANTI_AFFIN,
                    violation + "; " + p.unitName(unit) + " cannot move: " + String.join("; ", reasons)));
            return;
        }
        CostBenefit.Result r = costBenefit.evaluate(p.unit(unit.vm(), on(p, unit.disks(), src)), src, dst);
        String summary = String.format(Locale.ROOT, "%s; moving %s (%.1f GB) to %s, the most balanced datastore the rules allow: "
                        + "source %s, destination %s (%s); %s",
                violation, p.unitName(unit), unit.sizeGb(), p.datastoreName(dst), r.source().latencyChange(),
                r.destination().latencyChange(), r.destination().model(), r.describe());
        b.add(unit, dst, ReasonCode.VIRTUAL_DISK_ANTI_AFFIN, summary, List.of(r.source(), r.destination()), r.cost(), r.benefit(),
                false);
    }

    /**
     * Why no move may fix a violation of VM {@code v}'s {@code disks} in this run; null when one
     * may. With {@code leftToEvacuation}, a disk on a datastore entering maintenance is its
     * evacuation's, which places it by the rules.
     */
    private static String blocked(MovePlanBuilder b, int v, int[] disks, boolean leftToEvacuation) {
        WorkingPlacement p = b.placement();
        if (p.vmOverride(v) == VmOverride.EXCLUDED) {
            return "VM " + p.vmName(v) + " is excluded from Storage DRS: fix it by hand";
        }
        for (int i : leftToEvacuation ? disks : new int[0]) {
            int j = p.diskDatastore(i);
            if (p.state().datastores().get(j).maintenance() != MaintenanceState.NORMAL) {
                return "datastore " + p.datastoreName(j) + " is in or entering maintenance mode: its evacuation places "
                        + p.diskName(i);
            }
        }
        if (b.hasMoved(p.unit(v, disks))) {
            return "a disk of VM " + p.vmName(v) + " already moves in this run: the next run fixes it";
        }
        if (!b.underMoveCap()) {
            return "this run has reached its limit of " + p.settings().maxMovesPerRun() + " moves: the next run fixes it";
        }
        return null;
    }

    private static Map<Integer, List<Integer>> byDatastore(WorkingPlacement p, int[] disks) {
        Map<Integer, List<Integer>> out = new LinkedHashMap<>();
        for (int i : disks) {
            out.computeIfAbsent(p.diskDatastore(i), j -> new ArrayList<>()).add(i);
        }
        return out;
    }

    private static int[] notOn(WorkingPlacement p, int[] disks, int j) {
        return Arrays.stream(disks).filter(i -> p.diskDatastore(i) != j).toArray();
    }

    private static int[] on(WorkingPlacement p, int[] disks, int j) {
        return Arrays.stream(disks).filter(i -> p.diskDatastore(i) == j).toArray();
    }

    /** {@code disks} with those on {@code source} first: a move records its first disk's datastore as its source. */
    private static int[] sourceFirst(WorkingPlacement p, int[] disks, int source) {
        int[] first = on(p, disks, source);
        int[] rest = notOn(p, disks, source);
        int[] out = Arrays.copyOf(first, disks.length);
        System.arraycopy(rest, 0, out, first.length, rest.length);
        return out;
    }

    private static int largestSource(WorkingPlacement p, int[] disks) {
        Map<Integer, Double> gb = new LinkedHashMap<>();
        for (int i : disks) {
            gb.merge(p.diskDatastore(i), p.diskSizeGb(i), Double::sum);
        }
        return gb.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    private static double sizeGb(WorkingPlacement p, int[] disks) {
        double gb = 0;
        for (int i : disks) {
            gb += p.diskSizeGb(i);
        }
        return gb;
    }
}
