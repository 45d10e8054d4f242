package io.opensdrs.server.api;

import io.opensdrs.server.balancing.BalancingViews;
import io.opensdrs.server.balancing.ClusterStateAssembler;
import io.opensdrs.server.balancing.SledsControlLoop;
import io.opensdrs.server.balancing.StorageDrsOff;
import io.opensdrs.server.history.ActionHistoryRepository;
import io.opensdrs.server.inventory.InventoryRepository;
import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.problems.InvalidFieldException;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.rules.PodRules;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.server.settings.ClusterSettings;
import io.opensdrs.server.settings.ClusterSettingsRepository;
import io.opensdrs.server.settings.SettingsRequest;
import io.opensdrs.server.settings.VCenterPodSettings;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.StorageDrsRules.PodSettings;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import io.opensdrs.server.balancing.BalancingRepository;
import io.opensdrs.server.balancing.BalancingScheduler;
import io.opensdrs.server.migration.MigrationRepository;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Datastore clusters (StoragePods): settings, model choice, recommendations, history, faults. */
@RestController
@RequestMapping("/api/v1/clusters")
@Tag(name = "clusters")
public class ClustersController {

    private final InventoryQueries queries;
    private final InventoryRepository inventory;
    private final ActionHistoryRepository history;
    private final ClusterSettingsRepository settingsRepository;
    private final DatastoreModels models;
    private final MigrationRepository migrations;
    private final BalancingRepository balancing;
    private final ClusterPolicies policies;
    private final ClusterStateAssembler assembler;
    private final VCenterPodSettings podSettings;
    private final PodRules podRules;
    private final StorageDrsOff storageDrsOff;
    private final SledsControlLoop sleds;
    /** A VM anti-affinity rule's id in the API: this prefix and the rule's name, unique in the pod. */
    private static final String VM_ANTI_AFFINITY = "vmAntiAffinity:";
    private static final String VMDK_ANTI_AFFINITY = "vmdkAntiAffinity:";
    private final BalancingScheduler scheduler;
    private final java.time.Clock clock;
    private static final String INTRA_VM_AFFINITY = "intraVmAffinity:";

    public ClustersController(InventoryQueries queries, InventoryRepository inventory, ActionHistoryRepository history,
                              ClusterSettingsRepository settingsRepository, DatastoreModels models,
                              MigrationRepository migrations, BalancingRepository balancing, ClusterPolicies policies, ClusterStateAssembler assembler,
                              VCenterPodSettings podSettings, PodRules podRules, StorageDrsOff storageDrsOff, SledsControlLoop sleds,
                              BalancingScheduler scheduler, java.time.Clock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
        this.sleds = sleds;
        this.assembler = assembler;
        this.storageDrsOff = storageDrsOff;
        this.podRules = podRules;
        this.podSettings = podSettings;
        this.policies = policies;
        this.queries = queries;
        this.inventory = inventory;
        this.history = history;
        this.settingsRepository = settingsRepository;
        this.models = models;
        this.migrations = migrations;
        this.balancing = balancing;
    }

    @GetMapping
    @Operation(summary = "All datastore clusters")
    public List<ApiViews.ClusterView> list() {
        return queries.clusters().stream().map(this::view).toList();
    }

    @GetMapping("/{clusterId}")
    public ApiViews.ClusterView get(@PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId) {
        return view(queries.cluster(clusterId));
    }

    @GetMapping("/{clusterId}/rules")
    @Operation(summary = "The cluster's Storage DRS rules, as vCenter holds them (read by the inventory sync)")
    public List<ApiViews.RuleView> rules(@PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId) {
        queries.cluster(clusterId);
        StorageDrsRules rules = assembler.storageDrsRules(clusterId);
        Map<String, String> vmNames = inventory.vmNames();
        List<ApiViews.RuleView> out = new ArrayList<>();
        for (StorageDrsRules.VmAntiAffinity r : rules.vmAntiAffinity()) {
            out.add(new ApiViews.RuleView(VM_ANTI_AFFINITY + r.name(), "vmAntiAffinity", r.name(), r.enabled(),
                    r.vmIds().stream().map(v -> vmNames.getOrDefault(v, v)).toList()));
        }
        for (StorageDrsRules.VmRules v : rules.vms()) {
            String vm = vmNames.getOrDefault(v.vmId(), v.vmId());
            StorageDrsRules.VmdkAntiAffinity a = v.vmdkAntiAffinity();
            if (a != null) {
                Map<Integer, String> files = inventory.diskFiles(v.vmId());
                out.add(new ApiViews.RuleView(VMDK_ANTI_AFFINITY + v.vmId(), "vmdkAntiAffinity", a.name(), a.enabled(),
                        a.diskKeys().stream().map(k -> files.getOrDefault(k, vm + " disk " + k)).toList()));
            }
            if (v.keepTogether() != null) {
                out.add(new ApiViews.RuleView(INTRA_VM_AFFINITY + v.vmId(), "intraVmAffinity", "keep VMDKs together: " + vm,
                        v.keepTogether(), List.of(vm)));
            }
        }
        return out;
    }

    @PostMapping("/{clusterId}/rules")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Create a VM or VMDK anti-affinity rule, or set a VM's keep-together, in vCenter (ConfigureStorageDrsForPod_Task); answered with the rule as read back")
    public ApiViews.RuleView createRule(@PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId,
                                        @Valid @RequestBody RuleRequest r) {
        queries.cluster(clusterId);
        String id;
        if ("vmAntiAffinity".equals(r.kind())) {
            notFor(r.kind(), "vmId", r.vmId());
            notFor(r.kind(), "diskKeys", r.diskKeys());
            notFor(r.kind(), "enabled", r.enabled());
            podRules.createVmAntiAffinity(clusterId, r.name(), r.vmIds());
            id = VM_ANTI_AFFINITY + r.name().strip();
        } else if ("vmdkAntiAffinity".equals(r.kind())) {
            notFor(r.kind(), "vmIds", r.vmIds());
            notFor(r.kind(), "enabled", r.enabled());
            podRules.createVmdkAntiAffinity(clusterId, r.name(), r.vmId(), r.diskKeys());
            id = VMDK_ANTI_AFFINITY + r.vmId();
        } else {
            notFor(r.kind(), "name", r.name());
            notFor(r.kind(), "vmIds", r.vmIds());
            notFor(r.kind(), "diskKeys", r.diskKeys());
            if (r.enabled() == null) {
                throw new InvalidFieldException("enabled", "true keeps the VM's disks together, false lets them move apart");
            }
            podRules.setVmKeepTogether(clusterId, r.vmId(), r.enabled());
            id = INTRA_VM_AFFINITY + r.vmId();
        }
        return rules(clusterId).stream().filter(v -> v.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalStateException("vCenter took rule " + id
                        + " but did not show it when read back; the next inventory sync brings it"));
    }

    private static void notFor(String kind, String field, Object value) {
        if (value != null) {
            throw new InvalidFieldException(field, "is not part of a " + kind + " rule");
        }
    }

    @DeleteMapping("/{clusterId}/rules/{ruleId}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(summary = "Remove a VM anti-affinity rule (vmAntiAffinity:NAME), a VM's VMDK anti-affinity rule (vmdkAntiAffinity:VM) "
            + "or a VM's own keep-together (intraVmAffinity:VM; it follows the cluster's default again) from vCenter")
    public void deleteRule(@PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId,
                           @PathVariable @Size(max = 200) String ruleId) {
        queries.cluster(clusterId);
        StorageDrsRules held = assembler.storageDrsRules(clusterId);
        if (ruleId.startsWith(VM_ANTI_AFFINITY)) {
            String name = ruleId.substring(VM_ANTI_AFFINITY.length());
            if (held.vmAntiAffinity().stream().noneMatch(v -> v.name().equals(name))) {
                throw new NotFoundException("datastore cluster " + clusterId + " has no VM anti-affinity rule " + name);
            }
            podRules.removeVmAntiAffinity(clusterId, name);
        } else if (ruleId.startsWith(VMDK_ANTI_AFFINITY)) {
            String vm = ruleId.substring(VMDK_ANTI_AFFINITY.length());
            if (held.vms().stream().noneMatch(v -> v.vmId().equals(vm) && v.vmdkAntiAffinity() != null)) {
                throw new NotFoundException("datastore cluster " + clusterId + " has no VMDK anti-affinity rule for VM " + vm);
            }
            podRules.removeVmdkAntiAffinity(clusterId, vm);
        } else if (ruleId.startsWith(INTRA_VM_AFFINITY)) {
            String vm = ruleId.substring(INTRA_VM_AFFINITY.length());
            StorageDrsRules.VmRules v = held.vms().stream().filter(x -> x.vmId().equals(vm) && x.keepTogether() != null)
                    .findFirst().orElseThrow(() -> new NotFoundException("VM " + vm + " has no keep-together setting of its own"));
            if (v.vmdkAntiAffinity() != null) {
                throw new InvalidFieldException("ruleId", "VM " + vm + " keeps its disks apart by VMDK anti-affinity rule "
                        + v.vmdkAntiAffinity().name() + "; remove that rule instead");
            }
            podRules.setVmKeepTogether(clusterId, vm, null);
        } else {
            throw new InvalidFieldException("ruleId", "must be vmAntiAffinity:NAME, vmdkAntiAffinity:VM or intraVmAffinity:VM");
        }
    }

    @GetMapping("/{clusterId}/vm-overrides")
    @Operation(summary = "Per-VM automation (held in vCenter too), SLEDS service class and keep-together (vCenter) of the cluster's VMs that have any")
    public List<ApiViews.VmOverrideView> vmOverrides(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId) {
        queries.cluster(clusterId);
        Map<String, String> vmNames = inventory.vmNames();
        Map<String, Boolean> keepTogether = new LinkedHashMap<>();
        assembler.storageDrsRules(clusterId).vms().forEach(v -> {
            if (v.keepTogether() != null) {
                keepTogether.put(v.vmId(), v.keepTogether());
            }
        });
        List<ApiViews.VmOverrideView> out = new ArrayList<>();
        for (SettingsRequest.VmOverrideEntry o : policies.overrides(clusterId)) {
            out.add(new ApiViews.VmOverrideView(o.vmId(), vmNames.get(o.vmId()), o.behavior(), keepTogether.remove(o.vmId()),
                    o.serviceClass()));
        }
        keepTogether.forEach((vm, k) -> out.add(new ApiViews.VmOverrideView(vm, vmNames.get(vm), "default", k, null)));
        return out;
    }

    @GetMapping("/{clusterId}/settings")
    public ApiViews.SettingsView settings(@PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId) {
        queries.cluster(clusterId);
        return view(queries.settings(clusterId));
    }

    private ApiViews.SettingsView view(ClusterSettings s) {
        return view(s, policies.overrides(s.getClusterMoid()), policies.serviceClasses(s.getClusterMoid()));
    }

    @PutMapping("/{clusterId}/settings")
    @Operation(summary = "Replace a cluster's Storage DRS settings")
    @Transactional
    public ApiViews.SettingsView putSettings(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId,
            @Valid @RequestBody SettingsRequest r) {
        if (!DatastoreModels.AUTO.equals(r.modelKind()) && !models.kinds().contains(r.modelKind())) {
            throw new InvalidFieldException("modelKind", "must be auto or one of " + models.kinds());
        }
        queries.cluster(clusterId);
        policies.lockForChange(clusterId);
        // every check before the first write: a refused request changes nothing (SPEC §5)
        policies.check(clusterId, r.vmOverrides(), r.serviceClasses());
        ClusterSettings s = queries.settings(clusterId);
        PodSettings before = VCenterPodSettings.of(s);
        s.setModelKind(r.modelKind());
        s.setAutomationLevel(r.automationLevel());
        s.setSpaceThresholdPct(r.spaceThresholdPct());
        s.setMinSpaceDifferencePct(r.minSpaceDifferencePct());
        s.setLatencyThresholdMs(r.latencyThresholdMs());
        s.setIoImbalanceThreshold(r.ioImbalanceThreshold());
        s.setLoadBalanceIntervalMinutes(r.loadBalanceIntervalMinutes());
        s.setIoLoadBalanceEnabled(r.ioLoadBalanceEnabled());
        s.setKeepVmdksTogether(r.keepVmdksTogether());
        s.setCongestionAlpha(r.congestionAlpha());
        if (r.spaceAutomationLevel() != null) {
            s.setSpaceAutomationLevel("inherit".equals(r.spaceAutomationLevel()) ? null : r.spaceAutomationLevel());
        }
        if (r.ioAutomationLevel() != null) {
            s.setIoAutomationLevel("inherit".equals(r.ioAutomationLevel()) ? null : r.ioAutomationLevel());
        }
        if (r.ruleAutomationLevel() != null) {
            s.setRuleAutomationLevel("inherit".equals(r.ruleAutomationLevel()) ? null : r.ruleAutomationLevel());
        }
        if (r.evacuationAutomationLevel() != null) {
            s.setEvacuationAutomationLevel("inherit".equals(r.evacuationAutomationLevel()) ? null : r.evacuationAutomationLevel());
        }
        if (r.ignoreAffinityForMaintenance() != null) {
            s.setIgnoreAffinityForMaintenance(r.ignoreAffinityForMaintenance());
        }
        if (r.strategy() != null) {
            s.setStrategy(r.strategy());
        }
        if (r.spaceThresholdMode() != null) {
            s.setSpaceThresholdMode(r.spaceThresholdMode());
        }
        if (r.freeSpaceThresholdGb() != null) {
            s.setFreeSpaceThresholdGb(r.freeSpaceThresholdGb());
        }
        if (r.storageDrsEnabled() != null) {
            s.setStorageDrsEnabled(r.storageDrsEnabled());
        }
        // vCenter's pod holds most of these and the VMs' automation too: it takes the change first, or the transaction
        // rolls back and nothing changes
        podSettings.apply(clusterId, before, VCenterPodSettings.of(s), r.vmOverrides());
        s.setUpdatedAt(Instant.now());
        ClusterSettings saved = settingsRepository.save(s);
        policies.replace(clusterId, r.vmOverrides(), r.serviceClasses());
        if (!saved.isStorageDrsEnabled()) {
            storageDrsOff.enforce(clusterId);
        }
        return view(saved);
    }

    @GetMapping("/{clusterId}/model-selection")
    @Operation(summary = "Held-out mean absolute error per model kind over the cluster's datastores, and the kind in use")
    public ApiViews.ModelSelectionView modelSelection(@PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId) {
        queries.cluster(clusterId);
        List<String> members = queries.datastoreNamesOf(clusterId);
        String configured = queries.settings(clusterId).getModelKind();
        return new ApiViews.ModelSelectionView(configured, models.clusterKind(configured, members), models.heldOutError(members),
                models.selectKinds(configured, members));
    }

    @GetMapping("/{clusterId}/recommendations")
    public List<ApiViews.RecommendationView> recommendations(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId,
            @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int limit) {
        queries.cluster(clusterId);
        return migrations.recommendationsOf(clusterId, limit).stream().map(r -> new ApiViews.RecommendationView(r.id(), r.vmId(),
                r.diskKey(), r.sourceDatastore(), r.destinationDatastore(), r.reasonCode(), r.benefit(), r.cost(), r.confidence(),
                r.state(), r.createdAt().toString(), r.movesHome(), r.explained())).toList();
    }

    @GetMapping("/{clusterId}/sleds")
    @Operation(summary = "SLEDS: each service class against its SLO, each classified stream with its throttle limit, as of the last"
            + " controller step")
    public BalancingViews.SledsView sleds(@PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId) {
        queries.cluster(clusterId);
        return sleds.view(clusterId);
    }

    @GetMapping("/{clusterId}/history")
    public List<ApiViews.HistoryView> history(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId,
            @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int limit) {
        queries.cluster(clusterId);
        return history.recent(clusterId, limit).stream().map(e -> new ApiViews.HistoryView(e.id(), e.action(), e.detail(),
                e.recommendationId(), e.occurredAt().toString())).toList();
    }

    @GetMapping("/{clusterId}/faults")
    public List<ApiViews.FaultView> faults(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId,
            @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int limit) {
        queries.cluster(clusterId);
        return balancing.faults(clusterId, limit).stream().map(f -> new ApiViews.FaultView(f.id(), f.subject(), f.reason(),
                f.createdAt().toString())).toList();
    }

    private ApiViews.ClusterView view(InventoryRepository.ClusterRow c) {
        ClusterSettings s = queries.settings(c.moid());
        List<String> members = queries.datastoreNamesOf(c.moid());
        var last = balancing.lastRun(c.moid());
        ApiViews.StorageDrsStatusView status = new ApiViews.StorageDrsStatusView(migrations.pendingOf(c.moid()),
                last.map(e -> e.getKey().toString()).orElse(null), last.map(java.util.Map.Entry::getValue).orElse(null),
                s.isStorageDrsEnabled() ? scheduler.expectedNextRun(c.moid()).toString() : null,
                balancing.faultsSince(c.moid(), clock.instant().minus(java.time.Duration.ofHours(24))));
        return new ApiViews.ClusterView(c.moid(), c.name(), c.datacenter(), members.size(), s.getModelKind(),
                models.clusterKind(s.getModelKind(), members), view(s), status);
    }

    static ApiViews.SettingsView view(ClusterSettings s, List<SettingsRequest.VmOverrideEntry> overrides,
                                      List<SettingsRequest.ServiceClassEntry> classes) {
        return new ApiViews.SettingsView(s.getModelKind(), s.getAutomationLevel(), s.getSpaceThresholdPct(),
                s.getMinSpaceDifferencePct(), s.getLatencyThresholdMs(), s.getIoImbalanceThreshold(),
                s.getLoadBalanceIntervalMinutes(), s.isIoLoadBalanceEnabled(), s.isKeepVmdksTogether(), s.getCongestionAlpha(),
                s.getSpaceAutomationLevel() == null ? "inherit" : s.getSpaceAutomationLevel(),
                s.getIoAutomationLevel() == null ? "inherit" : s.getIoAutomationLevel(), s.getStrategy(), s.getSpaceThresholdMode(),
                s.getFreeSpaceThresholdGb(), overrides, classes, s.isStorageDrsEnabled(), s.isIgnoreAffinityForMaintenance(),
                s.getRuleAutomationLevel() == null ? "inherit" : s.getRuleAutomationLevel(),
                s.getEvacuationAutomationLevel() == null ? "inherit" : s.getEvacuationAutomationLevel());
    }
}
