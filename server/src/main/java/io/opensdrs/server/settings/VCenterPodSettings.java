package io.opensdrs.server.settings;

import io.opensdrs.balance.VmOverride;
import io.opensdrs.server.migration.MoveDescriptions;
import io.opensdrs.server.vcenter.VCenterProperties;
import io.opensdrs.server.vcenter.VCenterRefusedException;
import io.opensdrs.server.vsphere.StorageDrsRules;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The Storage DRS settings of SPEC §4 held in two places, vCenter's pod
 * ({@code podStorageDrsEntry.storageDrsConfig}) and this server: the pod-wide ones in
 * {@code podConfig} (what the vSphere Client's "Edit Storage DRS" dialog edits) and
 * {@link ClusterSettings} — Storage DRS on or off, the automation level and each subsystem's (space, IO,
 * rule enforcement, VM evacuation), IO balancing on or off,
 * keep VMDKs together by default, the space and IO thresholds, and the advanced option "ignore
 * affinity rules for maintenance" ({@code podConfig.option}) — and each VM's automation in its
 * {@code vmConfig} entry (the client's "VM Overrides") and {@link ClusterPolicies}' overrides.
 * The inventory sync adopts every value vCenter holds; a change made through this server is made
 * in vCenter first (one {@code ConfigureStorageDrsForPod_Task}) and stored here only once vCenter
 * holds it, so a refusal changes nothing.
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
            new Shared<>("storageDrsEnabled", "podConfig.enabled", PodSettings::storageDrsEnabled,
                    ClusterSettings::isStorageDrsEnabled, ClusterSettings::setStorageDrsEnabled, v -> true),
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
                    (s, v) -> s.setIoAutomationLevel("inherit".equals(v) ? null : v), SUBSYSTEM_LEVELS::contains),
            new Shared<>("ruleAutomationLevel", "automationOverrides.ruleEnforcementAutomationMode",
                    PodSettings::ruleAutomationLevel, s -> inherit(s.getRuleAutomationLevel()),
                    (s, v) -> s.setRuleAutomationLevel("inherit".equals(v) ? null : v), SUBSYSTEM_LEVELS::contains),
            new Shared<>("evacuationAutomationLevel", "automationOverrides.vmEvacuationAutomationMode",
                    PodSettings::evacuationAutomationLevel, s -> inherit(s.getEvacuationAutomationLevel()),
                    (s, v) -> s.setEvacuationAutomationLevel("inherit".equals(v) ? null : v), SUBSYSTEM_LEVELS::contains),
            new Shared<>("ignoreAffinityForMaintenance", "podConfig.option " + PodSettings.IGNORE_AFFINITY_FOR_MAINTENANCE,
                    PodSettings::ignoreAffinityForMaintenance, ClusterSettings::isIgnoreAffinityForMaintenance,
                    ClusterSettings::setIgnoreAffinityForMaintenance, v -> true));

    private final ClusterSettingsRepository settings;
    private final ClusterPolicies policies;
    private final MoveDescriptions names;
    private final ObjectProvider<VSphereClient> clients;
    private final Duration timeout;
    /** When this server last changed each pod's Storage DRS configuration in vCenter (since it started). */
    private final Map<String, Instant> changedInVCenter = new ConcurrentHashMap<>();

    public VCenterPodSettings(ClusterSettingsRepository settings, ClusterPolicies policies, MoveDescriptions names,
                              ObjectProvider<VSphereClient> clients, VCenterProperties vcenter) {
        this.settings = settings;
        this.policies = policies;
        this.names = names;
        this.clients = clients;
        this.timeout = vcenter.getTimeout();
    }

    /** The shared settings as this server holds them. */
    public static PodSettings of(ClusterSettings s) {
        return new PodSettings(s.isStorageDrsEnabled(), s.getAutomationLevel(), s.isIoLoadBalanceEnabled(), s.isKeepVmdksTogether(),
                s.getSpaceThresholdMode(), s.getSpaceThresholdPct(), s.getFreeSpaceThresholdGb(), s.getMinSpaceDifferencePct(),
                s.getLatencyThresholdMs(), s.getIoImbalanceThreshold(), inherit(s.getSpaceAutomationLevel()),
                inherit(s.getIoAutomationLevel()), inherit(s.getRuleAutomationLevel()), inherit(s.getEvacuationAutomationLevel()),
                s.isIgnoreAffinityForMaintenance());
    }

    private static String inherit(String level) {
        return level == null ? "inherit" : level;
    }

    /**
     * The inventory sync saw the pod: each value vCenter holds becomes this server's, the VMs'
     * automation included (a VM vCenter lists without one follows the cluster). A pod-wide value
     * this server could not take (out of SPEC §4's ranges) is logged and left. Called inside the
     * sync's transaction.
     */
    public void adopt(String podId, StorageDrsRules vcenter) {
        ClusterSettings s = settings.findById(podId).orElseGet(() -> ClusterSettings.defaults(podId));
        List<String> adopted = new ArrayList<>();
        for (Shared<?> f : SHARED) {
            String change = f.adopt(vcenter.pod(), s, podId);
            if (change != null) {
                adopted.add(change);
            }
        }
        if (!adopted.isEmpty()) {
            s.setUpdatedAt(Instant.now());
            settings.save(s);
        }
        policies.adoptVmAutomation(podId, automation(vcenter)).forEach((vm, o) -> adopted.add(vmAutomation(vm, o)));
        if (!adopted.isEmpty()) {
            log.info("{}: vCenter's Storage DRS settings differ; the server follows: {}", podId, String.join(", ", adopted));
        }
    }

    /** This server has just changed the pod's Storage DRS configuration in vCenter (settings, rules). */
    public void changedInVCenter(String podId) {
        changedInVCenter.put(podId, Instant.now());
    }

    /**
     * The pod's Storage DRS configuration a sync that read vCenter at {@code readAt} should store:
     * what it read — unless this server changed the pod in vCenter after that read began, when the
     * read may hold the values from before the change, and storing them would undo it (a settings
     * {@code PUT} turning Storage DRS on, undone by a sync that had read it off): then the pod's
     * configuration is read from vCenter again, directly. Should that read fail, what the sync read
     * is kept.
     */
    public StorageDrsRules asOf(String podId, StorageDrsRules read, Instant readAt) {
        Instant changed = changedInVCenter.get(podId);
        VSphereClient client = clients.getIfAvailable();
        if (changed == null || changed.isBefore(readAt) || client == null) {
            return read;
        }
        try {
            log.debug("{}: changed in vCenter by this server at {}, the sync read it at {}: read again", podId, changed, readAt);
            return client.storageDrsRules(podId);
        } catch (VimFaultException | RuntimeException e) {
            log.warn("{}: reading the pod's Storage DRS configuration again failed, the sync's read is kept: {}", podId, e.toString());
            return read;
        }
    }

    /** VM → automation, of the VMs whose automation vCenter holds (not DEFAULT). */
    private static Map<String, VmOverride> automation(StorageDrsRules vcenter) {
        Map<String, VmOverride> held = new LinkedHashMap<>();
        vcenter.vms().forEach(v -> {
            if (v.automation() != VmOverride.DEFAULT) {
                held.put(v.vmId(), v.automation());
            }
        });
        return held;
    }

    /**
     * Makes vCenter hold {@code wanted} and the VMs' automation of {@code overrides} (null: left as
     * they are; a VM the server overrides now and the list leaves out follows the cluster again)
     * before the server stores them: one ConfigureStorageDrsForPod_Task with what differs from
     * {@code current} and the server's overrides, then a read of what vCenter holds. Nothing is
     * asked of vCenter when nothing shared changes or no vCenter is connected.
     *
     * @throws VCenterRefusedException naming the first changed field ({@code vmOverrides[i].behavior}
     *                                 for a VM's) when vCenter fails the call or the task, the task
     *                                 does not finish within the vCenter timeout ({@code Timedout}),
     *                                 or vCenter then holds another value (naming that field)
     */
    public void apply(String podId, PodSettings current, PodSettings wanted, List<SettingsRequest.VmOverrideEntry> overrides) {
        VSphereClient client = clients.getIfAvailable();
        PodSettings change = difference(current, wanted);
        Map<String, VmOverride> vmChange = overrides == null ? Map.of() : vmDifference(policies.vmOverrides(podId), overrides);
        if (client == null || change.equals(PodSettings.UNSET) && vmChange.isEmpty()) {
            return;
        }
        List<Shared<?>> changed = SHARED.stream().filter(f -> f.held().apply(change) != null).toList();
        String described = describe(change, changed, vmChange);
        try {
            changedInVCenter(podId);
            client.completeTask(client.configureStorageDrsForPod(podId, change, vmChange), timeout);
            changedInVCenter(podId);
            StorageDrsRules held = client.storageDrsRules(podId);
            for (Shared<?> f : changed) {
                if (!Objects.equals(f.held().apply(held.pod()), f.held().apply(change))) {
                    throw new VCenterRefusedException(f.field(), "vCenter completed ConfigureStorageDrsForPod_Task but holds "
                            + f.vcenterProperty() + " = " + f.held().apply(held.pod()) + ", not " + f.held().apply(change));
                }
            }
            Map<String, VmOverride> heldVms = automation(held);
            vmChange.forEach((vm, o) -> {
                VmOverride h = heldVms.getOrDefault(vm, VmOverride.DEFAULT);
                if (h != o) {
                    throw new VCenterRefusedException(vmField(vm, overrides), "vCenter completed ConfigureStorageDrsForPod_Task but holds "
                            + level(h) + " for VM " + vm(vm) + ", not " + level(o));
                }
            });
        } catch (VimFaultException e) {
            String field = changed.stream().filter(f -> e.getMessage() != null && e.getMessage().contains(f.vcenterProperty()))
                    .map(Shared::field).findFirst()
                    .orElse(changed.isEmpty() ? vmField(vmChange.keySet().iterator().next(), overrides) : changed.get(0).field());
            throw new VCenterRefusedException(field, "vCenter refused " + described + ": " + e.getMessage());
        }
        log.info("{}: Storage DRS settings set in vCenter: {}", podId, described);
    }

    /** VM → wanted automation, of each VM whose automation the list changes (a VM left out: DEFAULT). */
    static Map<String, VmOverride> vmDifference(Map<String, VmOverride> current, List<SettingsRequest.VmOverrideEntry> overrides) {
        Map<String, VmOverride> wanted = new LinkedHashMap<>();
        overrides.forEach(o -> wanted.put(o.vmId(), VmOverride.valueOf(o.behavior().toUpperCase(Locale.ROOT))));
        current.keySet().forEach(vm -> wanted.putIfAbsent(vm, VmOverride.DEFAULT));
        Map<String, VmOverride> change = new LinkedHashMap<>();
        wanted.forEach((vm, o) -> {
            if (current.getOrDefault(vm, VmOverride.DEFAULT) != o) {
                change.put(vm, o);
            }
        });
        return change;
    }

    /** The request's field for the VM: its entry's behavior, or the list when the VM was left out. */
    private static String vmField(String vm, List<SettingsRequest.VmOverrideEntry> overrides) {
        for (int i = 0; i < overrides.size(); i++) {
            if (overrides.get(i).vmId().equals(vm)) {
                return "vmOverrides[" + i + "].behavior";
            }
        }
        return "vmOverrides";
    }

    private static String level(VmOverride o) {
        return o.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The values of {@code wanted} that differ from {@code current}; the rest null. I/O load
     * balancing on or off goes with any change of the I/O thresholds, changed or not: vCenter's
     * {@code podConfig.ioLoadBalanceEnabled} is a plain boolean, false until set, which counts as
     * held once the pod has an {@code ioLoadBalanceConfig} (see {@link PodSettings}). Sent without
     * it, a first I/O latency threshold left vCenter holding I/O balancing off, and the next sync
     * turned it off here too.
     */
    static PodSettings difference(PodSettings current, PodSettings wanted) {
        boolean ioConfig = diff(current.latencyThresholdMs(), wanted.latencyThresholdMs()) != null
                || diff(current.ioImbalanceThreshold(), wanted.ioImbalanceThreshold()) != null;
        return new PodSettings(diff(current.storageDrsEnabled(), wanted.storageDrsEnabled()),
                diff(current.automationLevel(), wanted.automationLevel()),
                ioConfig ? wanted.ioLoadBalanceEnabled() : diff(current.ioLoadBalanceEnabled(), wanted.ioLoadBalanceEnabled()),
                diff(current.keepVmdksTogether(), wanted.keepVmdksTogether()),
                diff(current.spaceThresholdMode(), wanted.spaceThresholdMode()),
                diff(current.spaceThresholdPct(), wanted.spaceThresholdPct()),
                diff(current.freeSpaceThresholdGb(), wanted.freeSpaceThresholdGb()),
                diff(current.minSpaceDifferencePct(), wanted.minSpaceDifferencePct()),
                diff(current.latencyThresholdMs(), wanted.latencyThresholdMs()),
                diff(current.ioImbalanceThreshold(), wanted.ioImbalanceThreshold()),
                diff(current.spaceAutomationLevel(), wanted.spaceAutomationLevel()),
                diff(current.ioAutomationLevel(), wanted.ioAutomationLevel()),
                diff(current.ruleAutomationLevel(), wanted.ruleAutomationLevel()),
                diff(current.evacuationAutomationLevel(), wanted.evacuationAutomationLevel()),
                diff(current.ignoreAffinityForMaintenance(), wanted.ignoreAffinityForMaintenance()));
    }

    private static <T> T diff(T current, T wanted) {
        return Objects.equals(current, wanted) ? null : wanted;
    }

    private String describe(PodSettings change, List<Shared<?>> changed, Map<String, VmOverride> vmChange) {
        List<String> parts = new ArrayList<>(changed.stream().map(f -> f.vcenterProperty() + " = " + f.held().apply(change)).toList());
        vmChange.forEach((vm, o) -> parts.add(vmAutomation(vm, o)));
        return String.join(", ", parts);
    }

    private String vmAutomation(String vm, VmOverride o) {
        return "automation of VM " + vm(vm) + " = " + level(o);
    }

    /**
     * A VM as an administrator finds it in the vSphere Client, by name, with its id: names need not be
     * unique in vCenter (one per folder).
     */
    private String vm(String moid) {
        String name = names.vm(moid);
        return name.equals(moid) ? moid : name + " (" + moid + ")";
    }
}
