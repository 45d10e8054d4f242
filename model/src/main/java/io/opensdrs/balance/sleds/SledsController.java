package io.opensdrs.balance.sleds;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
 * tightened below its share of that bound (its share of the class's IOPS, and of its bytes/s), so
 * the class keeps what its SLO promises it; others not below {@link #minimumIops} IOs per second,
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

    public Decision step(List<ServiceClass> classes, List<StreamSample> samples, Map<String, LeakyBucketLimit> current) {
        Map<String, ServiceClass> byId = new HashMap<>();
        classes.forEach(c -> byId.put(c.id(), c));
        Map<String, double[]> classStats = new LinkedHashMap<>();  // {Σ iops·latency, Σ iops, Σ bytes/s}
        for (StreamSample s : samples) {
            if (!byId.containsKey(s.classId())) {
                throw new IllegalArgumentException("stream " + s.streamId() + " names unknown service class " + s.classId());
            }
            double[] st = classStats.computeIfAbsent(s.classId(), k -> new double[3]);
            st[0] += s.iops() * s.meanLatencyMs();
            st[1] += s.iops();
            st[2] += s.bytesPerSecond();
        }
        Map<String, Double> latency = new HashMap<>();
        Map<String, SloCompliance.Outcome> outcomes = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, double[]> e : classStats.entrySet()) {
            double l = e.getValue()[1] > 0 ? e.getValue()[0] / e.getValue()[1] : 0;
            latency.put(e.getKey(), l);
            outcomes.put(e.getKey(), SloCompliance.outcome(byId.get(e.getKey()), l, e.getValue()[1], e.getValue()[2]));
            if (l > byId.get(e.getKey()).deliveryBoundMs()) {
                missing.add(e.getKey());
            }
        }
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
            double[] st = classStats.get(s.classId());
            if (st[1] > c.demandBoundIops() || st[2] > c.demandBoundBytesPerSecond()) {
                overDemand.add(s);
            }
        }
        if (!overDemand.isEmpty()) {
            for (StreamSample s : overDemand) {
                // the class keeps its demand bound: each stream not below its share of it now, even if an earlier
                // step, when its share was smaller, held it lower
                ServiceClass c = byId.get(s.classId());
                double[] st = classStats.get(s.classId());
                LeakyBucketLimit old = next.get(s.streamId());
                double iops = Math.max(c.demandBoundIops() * share(s.iops(), st[1]), Math.min(old.iopsLimit(), s.iops() * (1 - tightenStep)));
                double bytes = Math.max(c.demandBoundBytesPerSecond() * share(s.bytesPerSecond(), st[2]),
                        Math.min(old.bytesPerSecondLimit(), s.bytesPerSecond() * (1 - tightenStep)));
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

    private static double share(double part, double whole) {
        return whole > 0 ? part / whole : 0;
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
