package io.opensdrs.server.balancing;

import io.opensdrs.balance.CongestionThresholds;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.shared.agent.v1.CongestionThreshold;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Congestion thresholds for throttling (SPEC §3.2): L_α = C/(1 − α) per datastore (Pesto Eq. 9)
 * with the cluster's α, optionally capped ({@code sdrs.balancing.congestion-cap-ms}, 0 = none),
 * sent to every agent that sees the datastore when it changes by more than 1 % (models are refit
 * every few minutes; a hair's change is not worth a message), and again to everyone every
 * {@code congestion-refresh} so that an agent that reconnected has them. Where Eq. 9 gives no
 * positive threshold (C = 0) the datastore gets SIOC's default, and the reason is logged
 * ({@link CongestionThresholds}).
 */
@Component
public class CongestionThresholdPublisher {

    private static final Logger log = LoggerFactory.getLogger(CongestionThresholdPublisher.class);

    private final ClusterStateAssembler assembler;
    private final ClusterPolicies policies;
    private final AgentDirectives directives;
    private final Clock clock;
    private final double capMs;
    private final long refreshMs;
    /** agent → datastore name → L_α last delivered. */
    private final Map<String, Map<String, Double>> delivered = new HashMap<>();
    private final AtomicLong generation = new AtomicLong();
    /** Datastores sent SIOC's default threshold, so that the reason is logged once, not every minute. */
    private final java.util.Set<String> onSiocDefault = new java.util.HashSet<>();
    private long lastFullRefreshMs = Long.MIN_VALUE;

    public CongestionThresholdPublisher(ClusterStateAssembler assembler, ClusterPolicies policies, AgentDirectives directives, Clock clock,
                                        @Value("${sdrs.balancing.congestion-cap-ms:0}") double capMs,
                                        @Value("${sdrs.balancing.congestion-refresh:PT10M}") java.time.Duration refresh) {
        this.assembler = assembler;
        this.policies = policies;
        this.directives = directives;
        this.clock = clock;
        this.capMs = capMs;
        this.refreshMs = refresh.toMillis();
    }

    @Scheduled(fixedDelayString = "${sdrs.balancing.congestion-interval:PT1M}", initialDelayString = "${sdrs.balancing.congestion-interval:PT1M}")
    public void tick() {
        try {
            publish();
        } catch (RuntimeException e) {
            log.warn("congestion threshold publication failed: {}", e.toString());
        }
    }

    /** Sends what changed; answers agent → thresholds sent. */
    public synchronized Map<String, List<CongestionThreshold>> publish() {
        long now = clock.millis();
        boolean full = lastFullRefreshMs == Long.MIN_VALUE || now - lastFullRefreshMs >= refreshMs;
        if (full) {
            lastFullRefreshMs = now;
        }
        Map<String, List<CongestionThreshold>> perAgent = new HashMap<>();
        for (String cluster : assembler.clusterIds()) {
            ClusterStateAssembler.Assembled a = assembler.assemble(cluster);
            double alpha = policies.settings(cluster).getCongestionAlpha();
            for (Map.Entry<String, CongestionThresholds.Threshold> e : CongestionThresholds.of(a.state(), alpha, capMs).entrySet()) {
                String name = a.datastoreName(e.getKey());
                double l = e.getValue().latencyMs();
                if (!Double.isFinite(l)) {
                    continue;
                }
                // once per datastore while it lasts: Eq. 9 gave no threshold, SIOC's default is sent
                if (e.getValue().fallbackReason() == null) {
                    onSiocDefault.remove(name);
                } else if (onSiocDefault.add(name)) {
                    log.info("congestion threshold of datastore {}: {}", name, e.getValue().fallbackReason());
                }
                for (String agent : directives.agentsSeeing(name)) {
                    Double before = delivered.getOrDefault(agent, Map.of()).get(name);
                    if (full || before == null || Math.abs(before - l) > 0.01 * Math.max(before, 1e-9)) {
                        perAgent.computeIfAbsent(agent, k -> new ArrayList<>())
                                .add(CongestionThreshold.newBuilder().setDatastore(name).setLatencyMs(l).setAlpha(alpha).build());
                    }
                }
            }
        }
        Map<String, List<CongestionThreshold>> sent = new HashMap<>();
        perAgent.forEach((agent, list) -> {
            ServerMessage m = ServerMessage.newBuilder().setCongestionThresholds(io.opensdrs.shared.agent.v1.CongestionThresholds.newBuilder()
                    .setGeneration(generation.updateAndGet(g -> Math.max(g + 1, now))).addAllThresholds(list)).build();
            if (!directives.send(List.of(agent), m).isEmpty()) {
                Map<String, Double> mine = delivered.computeIfAbsent(agent, k -> new HashMap<>());
                list.forEach(t -> mine.put(t.getDatastore(), t.getLatencyMs()));
                sent.put(agent, list);
            }
        });
        return sent;
    }
}
