package io.opensdrs.balance.sleds;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The SLEDS server's control step (Chambliss et al., SLEDS §4.2; SPEC §3.5), run every second
 * as a pure function: samples and the current limits in, new limits out.
 * <ol>
 *   <li>Compare each service class with its SLO: its IOPS-weighted mean response time against
 *       its delivery bound.</li>
 *   <li>If some class misses its SLO: relax the limits of its streams (they must not be the ones
 *       held back), then tighten by a step the competing streams that can best afford it —
 *       first those of classes over their demand bound (those whose own latency objective is met
 *       first of all), and only if there are none, the one stream of a class with the most
 *       latency headroom, as long as that class keeps a margin under its bound.</li>
 *   <li>Throttled streams that compete with no stream missing its SLO are relaxed gradually —
 *       all of them when every class meets its SLO; a limit well above what the stream uses is
 *       removed.</li>
 * </ol>
 * <b>Competing</b> (SLEDS §3, "throttling a stream that shares no resources with an
 * underperforming client has no beneficial effect"): a stream competes when it shares a
 * resource ({@link StreamSample#resources()}, a disk's datastore) with a stream of a class that
 * misses its SLO whose own response time is over that class's bound — the class's mean can miss
 * because of one datastore while its streams elsewhere are fast. Streams whose resources are not
 * known compete with all.
 * <p>Demand bounds are the class's, its streams together (SLEDS §3: "bounds on demand apply to
 * the whole group, without restrictions on the relative allocation to each member", as the
 * delivery bound applies to the group's mean). A stream of a class over its demand bound is never
 * tightened below its max-min fair share of that bound ({@link MaxMinFairShare}, of the IOPS and of
 * the bytes/s bound; a throttled stream asks for more than it gets), so the class keeps
 * what its SLO promises it and its streams held back share it equally; others not below {@link #minimumIops} IOs per second,
 * nor below the bytes per second those IOs carry at the stream's mean IO size.
 */
public final class SledsController {

    private final double tightenStep;
    private final double relaxStep;
    private final double headroomMargin;
    private final double minimumIops;
    private final double burstSeconds;

    /** SLEDS-like defaults: tighten by 20 %, relax by 10 % per second, 20 % headroom margin. */
    public SledsController() {
        this(0.2, 0.1, 0.8, 10, 0.1);
    }

    public SledsController(double tightenStep, double relaxStep, double headroomMargin, double minimumIops, double burstSeconds) {
        if (!(tightenStep > 0 && tightenStep < 1) || !(relaxStep > 0) || !(headroomMargin > 0 && headroomMargin <= 1)) {
            throw new IllegalArgumentException("tightenStep in (0,1), relaxStep > 0, headroomMargin in (0,1]");
        }
        this.tightenStep = tightenStep;
        this.relaxStep = relaxStep;
        this.headroomMargin = headroomMargin;
        this.minimumIops = minimumIops;
        this.burstSeconds = burstSeconds;
    }

    /**
     * The step's result: every stream's limit (unthrottled ones included), what was done, each
     * sampled class's IOPS-weighted mean response time (the one compared with its delivery bound)
     * and what that makes of the window for the class's SLO ({@link SloCompliance#outcome}).
     */
    public record Decision(Map<String, LeakyBucketLimit> limits, List<String> actions, List<String> classesMissingSlo,
                           Map<String, Double> classLatencyMs, Map<String, SloCompliance.Outcome> classOutcomes) {

        /** A step without samples. */
        public static Decision none() {
            return new Decision(Map.of(), List.of(), List.of(), Map.of(), Map.of());
        }
    }

    /** A class's streams together in one sample: IOPS-weighted mean response time, IOPS and bytes/s. */
    public record ClassLoad(double latencyMs, double iops, double bytesPerSecond) {
    }

    /**
     * Each sampled class's load (SLEDS §3: the delivery bound applies to the group's average
     * response time, the demand bounds to the group's streams together).
     */
    public static Map<String, ClassLoad> classLoads(List<ServiceClass> classes, List<StreamSample> samples) {
        Set<String> known = new HashSet<>();
        classes.forEach(c -> known.add(c.id()));
        Map<String, double[]> sums = new LinkedHashMap<>();  // {Σ iops·latency, Σ iops, Σ bytes/s}
        for (StreamSample s : samples) {
            if (!known.contains(s.classId())) {
                throw new IllegalArgumentException("stream " + s.streamId() + " names unknown service class " + s.classId());
            }
            double[] st = sums.computeIfAbsent(s.classId(), k -> new double[3]);
            st[0] += s.iops() * s.meanLatencyMs();
            st[1] += s.iops();
            st[2] += s.bytesPerSecond();
        }
        Map<String, ClassLoad> out = new LinkedHashMap<>();
        sums.forEach((id, st) -> out.put(id, new ClassLoad(st[1] > 0 ? st[0] / st[1] : 0, st[1], st[2])));
        return out;
    }

    public Decision step(List<ServiceClass> classes, List<StreamSample> samples, Map<String, LeakyBucketLimit> current) {
        Map<String, ServiceClass> byId = new HashMap<>();
        classes.forEach(c -> byId.put(c.id(), c));
        Map<String, ClassLoad> loads = classLoads(classes, samples);
        Map<String, Double> latency = new HashMap<>();
        Map<String, SloCompliance.Outcome> outcomes = new HashMap<>();
        List<String> missing = new ArrayList<>();
        loads.forEach((classId, load) -> {
            latency.put(classId, load.latencyMs());
            outcomes.put(classId, SloCompliance.outcome(byId.get(classId), load.latencyMs(), load.iops(), load.bytesPerSecond()));
            if (load.latencyMs() > byId.get(classId).deliveryBoundMs()) {
                missing.add(classId);
            }
        });
        Map<String, LeakyBucketLimit> next = new LinkedHashMap<>();
        for (StreamSample s : samples) {
            next.put(s.streamId(), current.getOrDefault(s.streamId(), LeakyBucketLimit.unthrottled(s.streamId())));
        }
        List<StreamSample> suffering = samples.stream()
                .filter(s -> missing.contains(s.classId()) && s.meanLatencyMs() > byId.get(s.classId()).deliveryBoundMs())
                .toList();
        List<StreamSample> competing = new ArrayList<>();
        List<String> actions = new ArrayList<>();
        for (StreamSample s : samples) {
            LeakyBucketLimit l = next.get(s.streamId());
            if (missing.contains(s.classId())) {
                if (l.throttled()) {
                    next.put(s.streamId(), LeakyBucketLimit.unthrottled(s.streamId()));
                    actions.add("relax " + s.streamId() + " (class " + s.classId() + " misses its SLO)");
                }
            } else if (suffering.stream().anyMatch(s::competesWith)) {
                competing.add(s);
            } else if (l.throttled()) {
                relax(next, s, l, actions);
            }
        }
        List<StreamSample> overDemand = new ArrayList<>();
        for (StreamSample s : competing) {
            ServiceClass c = byId.get(s.classId());
            ClassLoad load = loads.get(s.classId());
            if (load.iops() > c.demandBoundIops() || load.bytesPerSecond() > c.demandBoundBytesPerSecond()) {
                overDemand.add(s);
            }
        }
        if (!overDemand.isEmpty()) {
            Map<String, double[]> fair = fairShares(byId, samples, current);
            for (StreamSample s : overDemand) {
                // the class keeps its demand bound: each stream not below its fair share of it now, even if an earlier
                // step, when its share was smaller, held it lower
                LeakyBucketLimit old = next.get(s.streamId());
                double[] f = fair.get(s.streamId());
                double iops = Math.max(f[0], Math.min(old.iopsLimit(), s.iops() * (1 - tightenStep)));
                double bytes = Math.max(f[1], Math.min(old.bytesPerSecondLimit(), s.bytesPerSecond() * (1 - tightenStep)));
                tighten(next, s, iops, bytes, actions, "its class is over its demand bound", suffering);
            }
        } else {
            // Moderate-demand streams: the one whose class has the most headroom, if it keeps a margin.
            competing.stream()
                    .filter(s -> latency.get(s.classId()) < headroomMargin * byId.get(s.classId()).deliveryBoundMs())
                    .min(Comparator.comparingDouble((StreamSample s) -> latency.get(s.classId()) / byId.get(s.classId()).deliveryBoundMs())
                            .thenComparing(s -> -s.iops()))
                    .ifPresent(s -> tighten(next, s,
                            Math.min(next.get(s.streamId()).iopsLimit(), Math.max(minimumIops, s.iops() * (1 - tightenStep))),
                            Math.min(next.get(s.streamId()).bytesPerSecondLimit(),
                                    Math.max(minimumIops * meanIoBytes(s), s.bytesPerSecond() * (1 - tightenStep))),
                            actions, "its class has the most headroom", suffering));
        }
        return new Decision(next, actions, missing, Map.copyOf(latency), Map.copyOf(outcomes));
    }

    /**
     * Each stream's max-min fair share of its class's demand bounds, {IOPS, bytes/s}: an unthrottled
     * stream asks for what it uses; a throttled one for more than it gets, as its demand is unknown —
     * a sample under its limit may be a lull or the noise of a few IOs in a second (at 2.5 IOPS, 8 % of
     * seconds see none), and taking it for the demand would cut the stream to nothing.
     */
    private Map<String, double[]> fairShares(Map<String, ServiceClass> byId, List<StreamSample> samples, Map<String, LeakyBucketLimit> current) {
        Map<String, List<StreamSample>> byClass = new LinkedHashMap<>();
        samples.forEach(s -> byClass.computeIfAbsent(s.classId(), k -> new ArrayList<>()).add(s));
        Map<String, double[]> out = new HashMap<>();
        byClass.forEach((classId, members) -> {
            double[] iopsDemand = new double[members.size()];
            double[] bytesDemand = new double[members.size()];
            for (int i = 0; i < members.size(); i++) {
                StreamSample s = members.get(i);
                LeakyBucketLimit l = current.getOrDefault(s.streamId(), LeakyBucketLimit.unthrottled(s.streamId()));
                iopsDemand[i] = Double.isFinite(l.iopsLimit()) ? Double.POSITIVE_INFINITY : s.iops();
                bytesDemand[i] = Double.isFinite(l.bytesPerSecondLimit()) ? Double.POSITIVE_INFINITY : s.bytesPerSecond();
            }
            double[] iops = MaxMinFairShare.divide(byId.get(classId).demandBoundIops(), iopsDemand);
            double[] bytes = MaxMinFairShare.divide(byId.get(classId).demandBoundBytesPerSecond(), bytesDemand);
            for (int i = 0; i < members.size(); i++) {
                out.put(members.get(i).streamId(), new double[] {iops[i], bytes[i]});
            }
        });
        return out;
    }

    /**
     * The bytes a stream's IO carries on average: the bytes/s floor that goes with the IOPS floor,
     * without which step after step of tightening would starve a stream held at {@link #minimumIops}.
     */
    private static double meanIoBytes(StreamSample s) {
        return s.iops() > 0 ? s.bytesPerSecond() / s.iops() : 0;
    }

    private void relax(Map<String, LeakyBucketLimit> next, StreamSample s, LeakyBucketLimit l, List<String> actions) {
        double iops = l.iopsLimit() * (1 + relaxStep);
        double bytes = l.bytesPerSecondLimit() * (1 + relaxStep);
        if (iops > 2 * Math.max(s.iops(), minimumIops) && bytes > 2 * Math.max(s.bytesPerSecond(), 1)) {
            next.put(s.streamId(), LeakyBucketLimit.unthrottled(s.streamId()));
            actions.add("unthrottle " + s.streamId());
        } else {
            next.put(s.streamId(), new LeakyBucketLimit(s.streamId(), iops, bytes, burstSeconds));
            actions.add(String.format(Locale.ROOT, "relax %s to %.0f IOPS", s.streamId(), iops));
        }
    }

    /** Sets the stream's new limit and says why. */
    private void tighten(Map<String, LeakyBucketLimit> next, StreamSample s, double iops, double bytes, List<String> actions, String why,
                         List<StreamSample> suffering) {
        next.put(s.streamId(), new LeakyBucketLimit(s.streamId(), iops, bytes, burstSeconds));
        actions.add(String.format(Locale.ROOT, "tighten %s to %.0f IOPS (%s; competes with %s)", s.streamId(), iops, why,
                competitionOf(s, suffering)));
    }

    /** The streams missing their SLO that {@code s} competes with, and where: "g1 on ds-a, g2". */
    private static String competitionOf(StreamSample s, List<StreamSample> suffering) {
        List<String> out = new ArrayList<>();
        for (StreamSample o : suffering) {
            if (!s.competesWith(o)) {
                continue;
            }
            List<String> shared = o.resources().stream().filter(s.resources()::contains).sorted().toList();
            out.add(shared.isEmpty() ? o.streamId() : o.streamId() + " on " + String.join(", ", shared));
        }
        return String.join("; ", out);
    }
}
