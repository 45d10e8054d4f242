package io.opensdrs.server.balancing;

import io.opensdrs.balance.CongestionThresholds;
import io.opensdrs.balance.DefaultModelRule;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.server.vcenter.VCenterProperties;
import io.opensdrs.server.vsphere.IormConfiguration;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import io.opensdrs.shared.agent.v1.CongestionThreshold;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Congestion thresholds for throttling (SPEC §3.2): L_α = C/(1 − α) per datastore (Pesto Eq. 9)
 * with the cluster's α, optionally capped ({@code sdrs.balancing.congestion-cap-ms}, 0 = none),
 * sent to every agent that sees the datastore when it changes by more than 1 % (models are refit
 * every few minutes; a hair's change is not worth a message), and again to everyone every
 * {@code congestion-refresh} so that an agent that reconnected has them. Where Eq. 9 gives no
 * positive threshold (C = 0) the datastore gets SIOC's default, and the reason is logged
 * ({@link CongestionThresholds}).
 *
 * <p>ESXi itself reads a datastore's SIOC congestion threshold from vCenter, so each L_α is also
 * set there (ConfigureDatastoreIORM_Task, manual mode, SIOC's on/off left as it is) for the
 * datastores of the managed datastore clusters that have a fitted model of their own: rounded to
 * whole ms and kept within vSphere's 5–100 ms and the cap. A datastore on the default model
 * (Pesto §5.1.3, a guess from its neighbours) or on SIOC's default keeps what vCenter holds (its
 * own SIOC default, automatic at a percentage of peak throughput). vCenter is written only when
 * L_α is 1 ms or more away from what it holds, as this server set it or read it (read again at
 * each {@code congestion-refresh}); a refusal is logged and tried again at the next cycle.
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
    private final Set<String> onSiocDefault = new HashSet<>();
    private long lastFullRefreshMs = Long.MIN_VALUE;
    private final ObjectProvider<VSphereClient> clients;
    private final Duration vcenterTimeout;
    /** datastore id → the congestion threshold (ms, manual) vCenter holds, as this server set it or read it. */
    private final Map<String, Integer> heldByVCenter = new HashMap<>();
    /** Datastores whose L_α is outside vSphere's range, so that this is logged once, not every minute. */
    private final Set<String> outsideVSphereRange = new HashSet<>();
    private final AtomicLong vcenterWrites = new AtomicLong();

    public CongestionThresholdPublisher(ClusterStateAssembler assembler, ClusterPolicies policies, AgentDirectives directives, Clock clock,
                                        @Value("${sdrs.balancing.congestion-cap-ms:0}") double capMs,
                                        @Value("${sdrs.balancing.congestion-refresh:PT10M}") Duration refresh,
                                        ObjectProvider<VSphereClient> clients, VCenterProperties vcenter) {
        this.clients = clients;
        this.vcenterTimeout = vcenter.getTimeout();
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

    /** vSphere's range of a manual SIOC congestion threshold (StorageIORMInfo.congestionThreshold), ms. */
    static final int VSPHERE_MIN_MS = 5;
    static final int VSPHERE_MAX_MS = 100;

    /** A datastore's L_α to hold in vCenter. */
    private record ForVCenter(String id, String name, double latencyMs) {
    }

    /** How many ConfigureDatastoreIORM_Task calls vCenter has completed for this publisher since it started. */
    public long vcenterWrites() {
        return vcenterWrites.get();
    }

    /** Sends what changed to the agents and sets what changed in vCenter; answers agent → thresholds sent. */
    public synchronized Map<String, List<CongestionThreshold>> publish() {
        long now = clock.millis();
        boolean full = lastFullRefreshMs == Long.MIN_VALUE || now - lastFullRefreshMs >= refreshMs;
        if (full) {
            lastFullRefreshMs = now;
        }
        Map<String, List<CongestionThreshold>> perAgent = new HashMap<>();
        List<ForVCenter> forVCenter = new ArrayList<>();
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
                if (e.getValue().fallbackReason() == null
                        && !DefaultModelRule.MODEL_NAME.equals(a.modelSource().getOrDefault(e.getKey(), DefaultModelRule.MODEL_NAME))) {
                    forVCenter.add(new ForVCenter(e.getKey(), name, l));
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
        setInVCenter(forVCenter, full);
        return sent;
    }

    /**
     * Makes vCenter hold each datastore's threshold in manual mode where it is 1 ms or more away from
     * what vCenter holds; on a full refresh what vCenter holds is read again (an administrator may
     * have changed it in the vSphere Client). A failure leaves the datastore to the next cycle.
     */
    private void setInVCenter(List<ForVCenter> wanted, boolean full) {
        VSphereClient client = clients.getIfAvailable();
        if (client == null || wanted.isEmpty()) {
            return;
        }
        if (full) {
            heldByVCenter.clear();
        }
        for (ForVCenter w : wanted) {
            double target = withinVSphere(w);
            int ms = (int) Math.round(target);
            try {
                Integer held = heldByVCenter.get(w.id());
                if (held == null) {
                    Optional<IormConfiguration> c = client.iormConfiguration(w.id());
                    if (c.isPresent() && c.get().manual()) {
                        held = c.get().congestionThresholdMs();
                        heldByVCenter.put(w.id(), held);
                    }
                }
                // a change under 1 ms is not worth a vCenter task every minute
                if (held != null && Math.abs(target - held) < 1) {
                    continue;
                }
                client.completeTask(client.configureCongestionThreshold(w.id(), ms), vcenterTimeout);
                vcenterWrites.incrementAndGet();
                heldByVCenter.put(w.id(), ms);
                log.info("congestion threshold of datastore {} set in vCenter: {} ms, manual (L_alpha = {} ms, was {})",
                        w.name(), ms, String.format(Locale.ROOT, "%.2f", w.latencyMs()), held == null ? "not manual" : held + " ms");
            } catch (VimFaultException | RuntimeException e) {
                heldByVCenter.remove(w.id());
                String reason = e instanceof VimFaultException f ? f.faultType() + ": " + f.getMessage() : e.toString();
                log.warn("vCenter did not set the congestion threshold {} ms of datastore {} ({}); tried again at the next cycle",
                        ms, w.name(), reason);
            }
        }
    }

    /**
     * L_α within what vSphere takes for a manual threshold (5–100 ms) and below the cap, whole ms
     * not yet taken (the 1-ms comparison uses the value before rounding).
     */
    private double withinVSphere(ForVCenter w) {
        double hi = capMs > 0 ? Math.max(VSPHERE_MIN_MS, Math.min(VSPHERE_MAX_MS, Math.floor(capMs))) : VSPHERE_MAX_MS;
        double t = Math.min(hi, Math.max(VSPHERE_MIN_MS, w.latencyMs()));
        boolean outside = w.latencyMs() < VSPHERE_MIN_MS || w.latencyMs() > VSPHERE_MAX_MS;
        if (!outside) {
            outsideVSphereRange.remove(w.id());
        } else if (outsideVSphereRange.add(w.id())) {
            log.info("congestion threshold of datastore {}: L_alpha = {} ms is outside vSphere's {}-{} ms; vCenter is given {} ms",
                    w.name(), String.format(Locale.ROOT, "%.2f", w.latencyMs()), VSPHERE_MIN_MS, VSPHERE_MAX_MS, Math.round(t));
        }
        return t;
    }
}
