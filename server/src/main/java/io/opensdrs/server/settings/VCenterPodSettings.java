package io.opensdrs.server.settings;

import io.opensdrs.server.vcenter.VCenterProperties;
import io.opensdrs.server.vcenter.VCenterRefusedException;
import io.opensdrs.server.vsphere.StorageDrsRules.PodSettings;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The Storage DRS settings of SPEC §4 that a datastore cluster has once, held in two places:
 * vCenter's pod ({@code podStorageDrsEntry.storageDrsConfig.podConfig}, what the vSphere Client's
 * "Edit Storage DRS" dialog edits) and this server's {@link ClusterSettings}: the automation level
 * and each subsystem's, IO balancing on or off, keep VMDKs together by default, and the space and
 * IO thresholds. The inventory sync adopts every value vCenter holds; a change made through this
 * server is made in vCenter first ({@code ConfigureStorageDrsForPod_Task}) and stored here only
 * once vCenter holds it, so a refusal changes nothing.
 *
 * <p>Not shared: the model kind, the strategy and the congestion α (vCenter has none), and the run
 * interval — SPEC §1 makes it 16 h by default, where a vCenter pod's {@code loadBalanceInterval}
 * is its own Storage DRS's (8 h by default), so adopting it would replace the product's default.
 */
@Component
public class VCenterPodSettings {

    private static final Logger log = LoggerFactory.getLogger(VCenterPodSettings.class);
    private static final Set<String> LEVELS = Set.of("manual", "automated");
    private static final Set<String> SUBSYSTEM_LEVELS = Set.of("manual", "automated", "inherit");

    /** One shared setting: its name (the REST field), where each side keeps it, and the values vCenter may hold. */
    private record Shared<T>(String field, String vcenterProperty, Function<PodSettings, T> held,
                             Function<ClusterSettings, T> server, BiConsumer<ClusterSettings, T> store, Predicate<T> valid) {

        /** Returns a description of the change when vCenter's valid value differs from the server's and was stored. */
        String adopt(PodSettings vcenter, ClusterSettings s, String podId) {
            T v = held.apply(vcenter);
            if (v == null || v.equals(server.apply(s))) {
                return null;
            }
            if (!valid.test(v)) {
                log.warn("{}: vCenter holds {} = {}, which this server cannot take; {} stays {}", podId, vcenterProperty, v,
                        field, server.apply(s));
                return null;
            }
            store.accept(s, v);
            return field + " = " + v;
        }
    }

    private static final List<Shared<?>> SHARED = List.of(
            new Shared<>("automationLevel", "podConfig.defaultVmBehavior", PodSettings::automationLevel,
                    ClusterSettings::getAutomationLevel, ClusterSettings::setAutomationLevel, LEVELS::contains),
            new Shared<>("ioLoadBalanceEnabled", "podConfig.ioLoadBalanceEnabled", PodSettings::ioLoadBalanceEnabled,
                    ClusterSettings::isIoLoadBalanceEnabled, ClusterSettings::setIoLoadBalanceEnabled, v -> true),
            new Shared<>("keepVmdksTogether", "podConfig.defaultIntraVmAffinity", PodSettings::keepVmdksTogether,
                    ClusterSettings::isKeepVmdksTogether, ClusterSettings::setKeepVmdksTogether, v -> true),
            new Shared<>("spaceThresholdMode", "spaceLoadBalanceConfig.spaceThresholdMode", PodSettings::spaceThresholdMode,
                    ClusterSettings::getSpaceThresholdMode, ClusterSettings::setSpaceThresholdMode,
                    Set.of("utilization", "freeSpace")::contains),
            new Shared<>("spaceThresholdPct", "spaceLoadBalanceConfig.spaceUtilizationThreshold", PodSettings::spaceThresholdPct,
                    ClusterSettings::getSpaceThresholdPct, ClusterSettings::setSpaceThresholdPct, v -> v >= 50 && v <= 100),
            new Shared<>("freeSpaceThresholdGb", "spaceLoadBalanceConfig.freeSpaceThresholdGB", PodSettings::freeSpaceThresholdGb,
                    ClusterSettings::getFreeSpaceThresholdGb, ClusterSettings::setFreeSpaceThresholdGb, v -> v >= 1 && v <= 1_000_000),
            new Shared<>("minSpaceDifferencePct", "spaceLoadBalanceConfig.minSpaceUtilizationDifference",
                    PodSettings::minSpaceDifferencePct, ClusterSettings::getMinSpaceDifferencePct,
                    ClusterSettings::setMinSpaceDifferencePct, v -> v >= 1 && v <= 50),
            new Shared<>("latencyThresholdMs", "ioLoadBalanceConfig.ioLatencyThreshold", PodSettings::latencyThresholdMs,
                    ClusterSettings::getLatencyThresholdMs, ClusterSettings::setLatencyThresholdMs, v -> v >= 5 && v <= 100),
            new Shared<>("ioImbalanceThreshold", "ioLoadBalanceConfig.ioLoadImbalanceThreshold", PodSettings::ioImbalanceThreshold,
                    ClusterSettings::getIoImbalanceThreshold, ClusterSettings::setIoImbalanceThreshold, v -> v >= 1 && v <= 100),
            new Shared<>("spaceAutomationLevel", "automationOverrides.spaceLoadBalanceAutomationMode",
                    PodSettings::spaceAutomationLevel, s -> inherit(s.getSpaceAutomationLevel()),
                    (s, v) -> s.setSpaceAutomationLevel("inherit".equals(v) ? null : v), SUBSYSTEM_LEVELS::contains),
            new Shared<>("ioAutomationLevel", "automationOverrides.ioLoadBalanceAutomationMode",
                    PodSettings::ioAutomationLevel, s -> inherit(s.getIoAutomationLevel()),
                    (s, v) -> s.setIoAutomationLevel("inherit".equals(v) ? null : v), SUBSYSTEM_LEVELS::contains));

    private final ClusterSettingsRepository settings;
    private final ObjectProvider<VSphereClient> clients;
    private final Duration timeout;

    public VCenterPodSettings(ClusterSettingsRepository settings, ObjectProvider<VSphereClient> clients,
                              VCenterProperties vcenter) {
        this.settings = settings;
        this.clients = clients;
        this.timeout = vcenter.getTimeout();
    }

    /** The shared settings as this server holds them. */
    public static PodSettings of(ClusterSettings s) {
        return new PodSettings(s.getAutomationLevel(), s.isIoLoadBalanceEnabled(), s.isKeepVmdksTogether(),
                s.getSpaceThresholdMode(), s.getSpaceThresholdPct(), s.getFreeSpaceThresholdGb(), s.getMinSpaceDifferencePct(),
                s.getLatencyThresholdMs(), s.getIoImbalanceThreshold(), inherit(s.getSpaceAutomationLevel()),
                inherit(s.getIoAutomationLevel()));
    }

    private static String inherit(String level) {
        return level == null ? "inherit" : level;
    }

    /**
     * The inventory sync saw the pod: each value vCenter holds becomes this server's. A value this
     * server could not take (out of SPEC §4's ranges) is logged and left. Called inside the sync's
     * transaction.
     */
    public void adopt(String podId, PodSettings vcenter) {
        ClusterSettings s = settings.findById(podId).orElseGet(() -> ClusterSettings.defaults(podId));
        List<String> adopted = new ArrayList<>();
        for (Shared<?> f : SHARED) {
            String change = f.adopt(vcenter, s, podId);
            if (change != null) {
                adopted.add(change);
            }
        }
        if (!adopted.isEmpty()) {
            log.info("{}: vCenter's Storage DRS settings differ; the server follows: {}", podId, String.join(", ", adopted));
            s.setUpdatedAt(Instant.now());
            settings.save(s);
        }
    }

    /**
     * Makes vCenter hold {@code wanted} for the pod before the server stores it: one
     * ConfigureStorageDrsForPod_Task with what differs from {@code current}, then a read of what
     * vCenter holds. Nothing is asked of vCenter when nothing shared changes or no vCenter is connected.
     *
     * @throws VCenterRefusedException naming the first changed field when vCenter fails the call or
     *                                 the task, the task does not finish within the vCenter timeout
     *                                 ({@code Timedout}), or vCenter then holds another value (naming that field)
     */
    public void apply(String podId, PodSettings current, PodSettings wanted) {
        VSphereClient client = clients.getIfAvailable();
        PodSettings change = difference(current, wanted);
        if (client == null || change.equals(PodSettings.UNSET)) {
            return;
        }
        List<Shared<?>> changed = SHARED.stream().filter(f -> f.held().apply(change) != null).toList();
        try {
            client.completeTask(client.configurePodSettings(podId, change), timeout);
            PodSettings held = client.storageDrsRules(podId).pod();
            for (Shared<?> f : changed) {
                if (!Objects.equals(f.held().apply(held), f.held().apply(change))) {
                    throw new VCenterRefusedException(f.field(), "vCenter completed ConfigureStorageDrsForPod_Task but holds "
                            + f.vcenterProperty() + " = " + f.held().apply(held) + ", not " + f.held().apply(change));
                }
            }
        } catch (VimFaultException e) {
            Shared<?> named = changed.stream().filter(f -> e.getMessage() != null && e.getMessage().contains(f.vcenterProperty()))
                    .findFirst().orElse(changed.get(0));
            throw new VCenterRefusedException(named.field(), "vCenter refused " + describe(change, changed) + ": " + e.getMessage());
        }
        log.info("{}: Storage DRS settings set in vCenter: {}", podId, describe(change, changed));
    }

    /** The values of {@code wanted} that differ from {@code current}; the rest null. */
    static PodSettings difference(PodSettings current, PodSettings wanted) {
        return new PodSettings(diff(current.automationLevel(), wanted.automationLevel()),
                diff(current.ioLoadBalanceEnabled(), wanted.ioLoadBalanceEnabled()),
                diff(current.keepVmdksTogether(), wanted.keepVmdksTogether()),
                diff(current.spaceThresholdMode(), wanted.spaceThresholdMode()),
                diff(current.spaceThresholdPct(), wanted.spaceThresholdPct()),
                diff(current.freeSpaceThresholdGb(), wanted.freeSpaceThresholdGb()),
                diff(current.minSpaceDifferencePct(), wanted.minSpaceDifferencePct()),
                diff(current.latencyThresholdMs(), wanted.latencyThresholdMs()),
                diff(current.ioImbalanceThreshold(), wanted.ioImbalanceThreshold()),
                diff(current.spaceAutomationLevel(), wanted.spaceAutomationLevel()),
                diff(current.ioAutomationLevel(), wanted.ioAutomationLevel()));
    }

    private static <T> T diff(T current, T wanted) {
        return Objects.equals(current, wanted) ? null : wanted;
    }

    private static String describe(PodSettings change, List<Shared<?>> changed) {
        return String.join(", ", changed.stream().map(f -> f.vcenterProperty() + " = " + f.held().apply(change)).toList());
    }
}
