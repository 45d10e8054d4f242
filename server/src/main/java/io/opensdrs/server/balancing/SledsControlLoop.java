package io.opensdrs.server.balancing;

import io.opensdrs.balance.sleds.LeakyBucketLimit;
import io.opensdrs.balance.sleds.ServiceClass;
import io.opensdrs.balance.sleds.SledsController;
import io.opensdrs.balance.sleds.SloCompliance;
import io.opensdrs.balance.sleds.StreamSample;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.server.stats.NewestDiskWindows;
import io.opensdrs.server.stats.WorkloadPercentiles;
import io.opensdrs.shared.agent.v1.ServerMessage;
import io.opensdrs.shared.agent.v1.StreamId;
import io.opensdrs.shared.agent.v1.StreamLimit;
import io.opensdrs.shared.agent.v1.ThrottleLimits;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SLEDS controller loop (SPEC §3.5, SLEDS §4.2): every second, per cluster with service
 * classes, each classified VM disk's stream (a disk's IO from its VM's host) is sampled — IOPS,
 * bytes/s and mean latency of its newest 20-s statistics window as read from vCenter's realtime
 * counters ({@link NewestDiskWindows}, which keeps them for the VMs in a class from the step that
 * finds them there; none received within {@code sdrs.balancing.sleds-sample-max-age} [PT1M]: the
 * stream is left out). vSphere publishes no finer sample than 20 s, so a step between two windows
 * acts on the last one again — and
 * {@link SledsController#step} turns samples and current limits into new limits (a stream's resource
 * is its disk's datastore: only streams on a datastore where a stream misses its SLO compete with
 * it); a host's agent gets its streams' limits (ThrottleLimits, generation monotonic) when they
 * change, and again every {@code sdrs.balancing.sleds-refresh} [PT30S] (an agent that restarted has none) — an empty list
 * once none of its streams is throttled any more (a class removed, a VM declassified), as agents
 * keep the last limits they were sent. Agents keep them too when the server is gone; streams not
 * listed are unthrottled. Each cluster's last step is what {@code GET /clusters/{id}/sleds} shows,
 * with each class's SLO kept or not over the 20-s statistics windows of its last
 * {@code sdrs.balancing.sleds-compliance-period} [PT1H] ({@link SloCompliance}, SLEDS §3; SLEDS §5
 * records over 10-s intervals what it controls on seconds).
 */
@Component
public class SledsControlLoop {

    private static final Logger log = LoggerFactory.getLogger(SledsControlLoop.class);

    private final ClusterPolicies policies;
    private final ClusterStateAssembler assembler;
    private final NewestDiskWindows newest;
    private final Duration sampleMaxAge;
    private final AgentDirectives directives;
    private final BalancingRepository store;
    private final Clock clock;
    private final SledsController controller = new SledsController();
    /** Each class's windows over the last {@code sdrs.balancing.sleds-compliance-period}, keyed cluster/class. */
    private final SloCompliance compliance;
    private final Map<String, LeakyBucketLimit> limits = new HashMap<>();
    /** host name → the throttled streams' limits last delivered to its agents. */
    private final Delivered<Map<String, LeakyBucketLimit>> delivered = new Delivered<>(Map.of());
    private final long refreshMs;
    /** cluster → its last step. */
    private final Map<String, BalancingViews.SledsView> lastStep = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();
    private final Timer stepTimer;

    public SledsControlLoop(ClusterPolicies policies, ClusterStateAssembler assembler, NewestDiskWindows newest,
                            AgentDirectives directives, BalancingRepository store, Clock clock, MeterRegistry meters,
                            @Value("${sdrs.balancing.sleds-refresh:PT30S}") Duration refresh,
                            @Value("${sdrs.balancing.sleds-sample-max-age:PT1M}") Duration sampleMaxAge,
                            @Value("${sdrs.balancing.sleds-compliance-period:PT1H}") Duration compliancePeriod) {
        this.compliance = new SloCompliance(compliancePeriod.toMillis());
        this.sampleMaxAge = sampleMaxAge;
        this.refreshMs = refresh.toMillis();
        // its count is the loop's heartbeat: SLEDS §4.2's controller must step every second, whatever else the server does
        this.stepTimer = Timer.builder("sdrs.run.duration").tag("run", "sleds").register(meters);
        this.policies = policies;
        this.assembler = assembler;
        this.newest = newest;
        this.directives = directives;
        this.store = store;
        this.clock = clock;
    }

    private record Stream(String id, String host, String vm, String vmName, int diskKey, String datastoreId, String datastoreName,
                          String classId) {
        StreamId proto() {
            return StreamId.newBuilder().setHost(host).setVm(vm).setDiskKey(diskKey).build();
        }
    }

    /**
     * What each host's agents were last sent of one directive, and when (clock ms): sent again when
     * it changes, and every refresh, as an agent that restarted meanwhile lost it with its process.
     */
    private final class Delivered<T> {
        private final T none;
        private final Map<String, T> last = new HashMap<>();
        private final Map<String, Long> atMs = new HashMap<>();

        Delivered(T none) {
            this.none = none;
        }

        Set<String> hosts() {
            return last.keySet();
        }

        boolean due(String host, T now) {
            return !now.equals(last.getOrDefault(host, none)) || clock.millis() - atMs.getOrDefault(host, Long.MIN_VALUE / 2) >= refreshMs;
        }

        void sent(String host, T value) {
            if (value.equals(none)) {
                last.remove(host);
                atMs.remove(host);
            } else {
                last.put(host, value);
                atMs.put(host, clock.millis());
            }
        }
    }

    @Scheduled(fixedRateString = "${sdrs.balancing.sleds-interval:PT1S}")
    public void tick() {
        try {
            stepTimer.record(this::step);
        } catch (RuntimeException e) {
            log.warn("SLEDS controller step failed: {}", e.toString());
        }
    }

    /** One controller step over every cluster; answers host → limits sent. */
    public synchronized Map<String, List<LeakyBucketLimit>> step() {
        Map<String, String> vmClass = policies.vmServiceClasses();
        newest.watch(vmClass.keySet());
        if (vmClass.isEmpty() && delivered.hosts().isEmpty()) {
            // no VM in a class and nothing to lift: SLEDS is not in use, nothing to read each second
            lastStep.clear();
            compliance.retain(Set.of());
            return Map.of();
        }
        Map<String, LeakyBucketLimit> stepLimits = new HashMap<>();
        Map<String, Map<String, LeakyBucketLimit>> throttledPerHost = new TreeMap<>();
        Map<String, Stream> byId = new HashMap<>();
        Map<String, Integer> windowSeconds = new HashMap<>();
        Set<String> clusters = new HashSet<>();
        Set<String> liveClasses = new HashSet<>();
        for (String cluster : assembler.clusterIds()) {
            clusters.add(cluster);
            List<ServiceClass> classes = vmClass.isEmpty() ? List.of() : policies.sledsClasses(cluster);
            if (classes.isEmpty()) {
                lastStep.remove(cluster);
                continue;
            }
            List<Stream> streams = store.streams(cluster).stream().map(r -> new Stream(r.hostName() + "/" + r.vmId() + "/" + r.diskKey(),
                    r.hostName(), r.vmId(), r.vmName(), r.diskKey(), r.datastoreId(), r.datastoreName(), vmClass.get(r.vmId()))).toList();
            Map<String, ServiceClass> classById = new HashMap<>();
            classes.forEach(c -> classById.put(c.id(), c));
            List<StreamSample> samples = new ArrayList<>();
            List<StreamSample> recorded = new ArrayList<>();
            Map<String, Long> classWindow = new HashMap<>();
            for (Stream s : streams) {
                if (s.classId() == null || !classById.containsKey(s.classId())) {
                    continue;
                }
                String diskId = WorkloadPercentiles.diskId(s.vm(), s.diskKey());
                Optional<NewestDiskWindows.Window> w = newest.window(diskId, sampleMaxAge);
                if (w.isEmpty()) {
                    continue;
                }
                recorded.add(new StreamSample(s.id(), s.classId(), w.get().iops(), w.get().bytesPerSecond(),
                        w.get().meanLatencyMs(), Set.of(s.datastoreId())));
                classWindow.merge(s.classId(), w.get().windowStartMs(), Math::max);
                // a disk's stream competes for its datastore (SLEDS §3's interconnection pattern)
                samples.add(new StreamSample(s.id(), s.classId(), w.get().iops(), w.get().bytesPerSecond(), w.get().meanLatencyMs(),
                        Set.of(s.datastoreId())));
                byId.put(s.id(), s);
                windowSeconds.put(s.id(), w.get().seconds());
            }
            SledsController.Decision d = samples.isEmpty() ? SledsController.Decision.none() : controller.step(classes, samples, limits);
            // compliance is recorded over the 20-s windows (SLEDS §5 records over 10-s intervals); a class's window
            // is its streams' newest, counted once however many steps see it
            SledsController.classLoads(classes, recorded).forEach((classId, load) -> compliance.record(cluster + "/" + classId,
                    classWindow.get(classId), SloCompliance.outcome(classById.get(classId), load.latencyMs(), load.iops(), load.bytesPerSecond())));
            classes.forEach(c -> liveClasses.add(cluster + "/" + c.id()));
            stepLimits.putAll(d.limits());
            d.limits().forEach((id, l) -> {
                if (l.throttled()) {
                    throttledPerHost.computeIfAbsent(byId.get(id).host(), h -> new TreeMap<>()).put(id, l);
                }
            });
            lastStep.put(cluster, view(cluster, classes, samples, byId, windowSeconds, d));
        }
        lastStep.keySet().retainAll(clusters);
        compliance.retain(liveClasses);
        // a stream no longer sampled or classified starts unthrottled if it comes back
        limits.clear();
        limits.putAll(stepLimits);
        Set<String> hosts = new TreeSet<>(throttledPerHost.keySet());
        hosts.addAll(delivered.hosts());
        Map<String, List<LeakyBucketLimit>> sent = new LinkedHashMap<>();
        for (String host : hosts) {
            Map<String, LeakyBucketLimit> hostLimits = throttledPerHost.getOrDefault(host, Map.of());
            if (!delivered.due(host, hostLimits)) {
                continue;
            }
            ThrottleLimits.Builder t = ThrottleLimits.newBuilder().setGeneration(generation.updateAndGet(g -> Math.max(g + 1, clock.millis())));
            for (LeakyBucketLimit l : hostLimits.values()) {
                Stream s = byId.get(l.streamId());
                // the controller's bucket counts reads and writes together: the agent's whole-rate dimensions, not its
                // per-direction ones, which would let a mixed stream through at up to twice the limit
                t.addLimits(StreamLimit.newBuilder().setStream(s.proto())
                        .setIops(finiteOrZero(l.iopsLimit())).setBytesPerS(finiteOrZero(l.bytesPerSecondLimit())).setBurstSeconds(l.burstSeconds()));
            }
            if (!directives.send(directives.agentsOnHost(host), ServerMessage.newBuilder().setThrottleLimits(t).build()).isEmpty()) {
                delivered.sent(host, hostLimits);
                sent.put(host, new ArrayList<>(hostLimits.values()));
            }
        }
        return sent;
    }

    /** 0 is "unlimited" on the wire. */
    private static double finiteOrZero(double rate) {
        return Double.isFinite(rate) ? rate : 0;
    }

    /**
     * The cluster's SLEDS state as its last step saw it; before its first step (no class, or
     * the loop not run yet), its classes without measurements and no streams.
     */
    public synchronized BalancingViews.SledsView view(String clusterId) {
        BalancingViews.SledsView v = lastStep.get(clusterId);
        if (v != null) {
            return v;
        }
        return new BalancingViews.SledsView(clusterId, null, policies.sledsClasses(clusterId).stream()
                .map(c -> classView(clusterId, c, null, null, 0)).toList(), List.of(), List.of());
    }

    private BalancingViews.SledsView.ClassView classView(String clusterId, ServiceClass c, Double latencyMs, Boolean meetsSlo, int streams) {
        SloCompliance.Tally t = compliance.tally(clusterId + "/" + c.id());
        return new BalancingViews.SledsView.ClassView(c.id(), c.deliveryBoundMs(), c.demandBoundIops(), c.demandBoundBytesPerSecond(),
                c.allowedMissPct(), latencyMs, meetsSlo, streams, t.windows(), t.missed(), t.compliant(c));
    }

    private BalancingViews.SledsView view(String clusterId, List<ServiceClass> classes, List<StreamSample> samples, Map<String, Stream> byId,
                                          Map<String, Integer> windowSeconds, SledsController.Decision d) {
        List<BalancingViews.SledsView.ClassView> classViews = new ArrayList<>();
        for (ServiceClass c : classes) {
            Double latency = d.classLatencyMs().get(c.id());
            classViews.add(classView(clusterId, c, latency, latency == null ? null : !d.classesMissingSlo().contains(c.id()),
                    (int) samples.stream().filter(s -> s.classId().equals(c.id())).count()));
        }
        List<BalancingViews.SledsView.StreamView> streamViews = new ArrayList<>();
        for (StreamSample s : samples) {
            Stream st = byId.get(s.streamId());
            LeakyBucketLimit l = d.limits().get(s.streamId());
            boolean throttled = l != null && l.throttled();
            streamViews.add(new BalancingViews.SledsView.StreamView(st.host(), st.vm(), st.vmName(), st.diskKey(), st.datastoreId(),
                    st.datastoreName(), s.classId(), windowSeconds.get(s.streamId()), s.iops(),
                    s.bytesPerSecond(), s.meanLatencyMs(), throttled && Double.isFinite(l.iopsLimit()) ? l.iopsLimit() : null,
                    throttled && Double.isFinite(l.bytesPerSecondLimit()) ? l.bytesPerSecondLimit() : null));
        }
        return new BalancingViews.SledsView(clusterId, clock.instant().toString(), classViews, streamViews, d.actions());
    }
}
