package io.opensdrs.server.balancing;

import io.opensdrs.balance.sleds.LeakyBucketLimit;
import io.opensdrs.balance.sleds.ServiceClass;
import io.opensdrs.balance.sleds.SledsController;
import io.opensdrs.balance.sleds.StreamSample;
import io.opensdrs.server.stats.WindowPercentiles;
import io.opensdrs.server.stats.WorkloadMetric;
import io.opensdrs.server.stats.WorkloadPercentiles;
import io.opensdrs.shared.agent.v1.ServerMessage;
import io.opensdrs.shared.agent.v1.StreamId;
import io.opensdrs.shared.agent.v1.StreamLimit;
import io.opensdrs.shared.agent.v1.ThrottleLimits;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SLEDS controller loop (SPEC §3.5, SLEDS §4.2): every second, per cluster with service
 * classes, each classified VM disk's stream (a disk's IO from its VM's host) is sampled — IOPS,
 * bytes/s and mean latency from the shortest statistics window, the freshest the server has — and
 * {@link SledsController#step} turns samples and current limits into new limits; a host's agent
 * gets its streams' limits (ThrottleLimits, generation monotonic) when they change. Agents keep the
 * last limits when the server is gone; streams not listed are unthrottled.
 */
@Component
public class SledsControlLoop {

    private static final Logger log = LoggerFactory.getLogger(SledsControlLoop.class);

    private final ClusterPolicies policies;
    private final ClusterStateAssembler assembler;
    private final WorkloadPercentiles percentiles;
    private final AgentDirectives directives;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final SledsController controller = new SledsController();
    private final Map<String, LeakyBucketLimit> limits = new HashMap<>();
    /** host name → the limits last delivered to its agents. */
    private final Map<String, Map<String, LeakyBucketLimit>> delivered = new HashMap<>();
    private final AtomicLong generation = new AtomicLong();
    private final Timer stepTimer;

    public SledsControlLoop(ClusterPolicies policies, ClusterStateAssembler assembler, WorkloadPercentiles percentiles,
                            AgentDirectives directives, JdbcTemplate jdbc, Clock clock, MeterRegistry meters) {
        // its count is the loop's heartbeat: SLEDS §4.2's controller must step every second, whatever else the server does
        this.stepTimer = Timer.builder("sdrs.run.duration").tag("run", "sleds").register(meters);
        this.policies = policies;
        this.assembler = assembler;
        this.percentiles = percentiles;
        this.directives = directives;
        this.jdbc = jdbc;
        this.clock = clock;
    }

    private record Stream(String id, String host, String vm, int diskKey, String classId) {
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
        Map<String, List<LeakyBucketLimit>> sent = new LinkedHashMap<>();
        Map<String, String> vmClass = policies.vmServiceClasses();
        if (vmClass.isEmpty()) {
            return sent;
        }
        Duration shortest = percentiles.windows().stream().min(Duration::compareTo).orElseThrow();
        for (String cluster : assembler.clusterIds()) {
            List<ServiceClass> classes = policies.sledsClasses(cluster);
            if (classes.isEmpty()) {
                continue;
            }
            List<Stream> streams = jdbc.query("SELECT h.name, v.moid, vd.disk_key FROM virtual_disk vd JOIN vm v ON v.moid = vd.vm_moid"
                            + " JOIN host h ON h.moid = v.host_moid JOIN datastore d ON d.moid = vd.datastore_moid WHERE d.cluster_moid = ?",
                    (rs, i) -> new Stream(rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getInt(3), rs.getString(1), rs.getString(2),
                            rs.getInt(3), vmClass.get(rs.getString(2))), cluster);
            List<StreamSample> samples = new ArrayList<>();
            Map<String, Stream> byId = new HashMap<>();
            for (Stream s : streams) {
                if (s.classId() == null || classes.stream().noneMatch(c -> c.id().equals(s.classId()))) {
                    continue;
                }
                Optional<WindowPercentiles> p = percentiles.disk(WorkloadPercentiles.diskId(s.vm(), s.diskKey()), shortest);
                if (p.isEmpty() || p.get().samples() == 0) {
                    continue;
                }
                double iops = ClusterStateAssembler.median(p.get(), WorkloadMetric.IOPS);
                double kb = ClusterStateAssembler.median(p.get(), WorkloadMetric.IO_SIZE_KB);
                samples.add(new StreamSample(s.id(), s.classId(), iops, iops * kb * 1024, ClusterStateAssembler.median(p.get(), WorkloadMetric.LATENCY_MS)));
                byId.put(s.id(), s);
            }
            if (samples.isEmpty()) {
                continue;
            }
            SledsController.Decision d = controller.step(classes, samples, limits);
            limits.putAll(d.limits());
            Map<String, Map<String, LeakyBucketLimit>> perHost = new HashMap<>();
            d.limits().forEach((id, l) -> {
                Stream s = byId.get(id);
                if (s != null) {
                    perHost.computeIfAbsent(s.host(), h -> new HashMap<>()).put(id, l);
                }
            });
            perHost.forEach((host, hostLimits) -> {
                if (hostLimits.equals(delivered.get(host))) {
                    return;
                }
                ThrottleLimits.Builder t = ThrottleLimits.newBuilder().setGeneration(generation.updateAndGet(g -> Math.max(g + 1, clock.millis())));
                for (LeakyBucketLimit l : hostLimits.values()) {
                    if (!l.throttled()) {
                        continue;
                    }
                    Stream s = byId.get(l.streamId());
                    // the controller's bucket counts reads and writes together: the agent's whole-rate dimensions, not its
                    // per-direction ones, which would let a mixed stream through at up to twice the limit
                    double iops = Double.isFinite(l.iopsLimit()) ? l.iopsLimit() : 0;
                    double bytes = Double.isFinite(l.bytesPerSecondLimit()) ? l.bytesPerSecondLimit() : 0;
                    t.addLimits(StreamLimit.newBuilder().setStream(StreamId.newBuilder().setHost(s.host()).setVm(s.vm()).setDiskKey(s.diskKey()))
                            .setIops(iops).setBytesPerS(bytes).setBurstSeconds(l.burstSeconds()));
                }
                if (!directives.send(directives.agentsOnHost(host), ServerMessage.newBuilder().setThrottleLimits(t).build()).isEmpty()) {
                    delivered.put(host, hostLimits);
                    sent.put(host, new ArrayList<>(hostLimits.values()));
                }
            });
        }
        return sent;
    }
}
