package io.opensdrs.server.api;

import io.opensdrs.balance.InitialPlacement;
import io.opensdrs.server.balancing.BalancingService;
import io.opensdrs.server.balancing.BalancingViews;
import io.opensdrs.server.balancing.CapacityAdvisor;
import io.opensdrs.server.balancing.MaintenanceMode;
import io.opensdrs.server.balancing.PlacementAdvisor;
import io.opensdrs.server.balancing.PlanRecorder;
import io.opensdrs.server.balancing.WorkloadRequest;
import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.problems.NotFoundException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Storage DRS actions (SPEC §4): "Run Storage DRS now", a recommendation's explanation,
 * datastore maintenance mode, initial placement (RecommendDatastores) and capacity planning
 * (Pesto §5.5). Bad input is a 400 naming the field and changes nothing (SPEC §5).
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "balancing")
public class BalancingController {

    private final BalancingService balancing;
    private final PlanRecorder recorder;
    private final MaintenanceMode maintenance;
    private final PlacementAdvisor placement;
    private final CapacityAdvisor capacity;
    private final InventoryQueries queries;

    public BalancingController(BalancingService balancing, PlanRecorder recorder, MaintenanceMode maintenance, PlacementAdvisor placement,
                               CapacityAdvisor capacity, InventoryQueries queries) {
        this.balancing = balancing;
        this.recorder = recorder;
        this.maintenance = maintenance;
        this.placement = placement;
        this.capacity = capacity;
        this.queries = queries;
    }

    /** POST /clusters/{id}/maintenance body. */
    /** @param ignoreAffinity for this request; absent, the cluster's "ignore affinity rules for maintenance" */
    public record MaintenanceRequest(@NotNull Boolean enter, Boolean ignoreAffinity) {
    }

    /**
     * POST /clusters/{id}/placement body: a new VM's disk; no workload = the cluster's average (Pesto §5.4.2);
     * {@code homeGB} its home (configuration files and swap: its memory less its reservation), placed with it.
     */
    public record PlacementRequest(
            @NotNull @DecimalMin(value = "0.0", inclusive = false) @DecimalMax("65536") Double sizeGB,
            @DecimalMin("0.0") @DecimalMax("65536") Double homeGB,
            @Valid WorkloadRequest workload,
            @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String vm,
            @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String hostId,
            @Pattern(regexp = "pesto|basil", message = "must be pesto (balanced latency) or basil (least normalized load)") String objective) {
    }

    @PostMapping("/clusters/{clusterId}/run")
    @Operation(summary = "Run Storage DRS now: recommendations (applied at once where automated) and faults")
    public BalancingViews.RunView run(@PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId) {
        queries.cluster(clusterId);
        return balancing.runNow(clusterId);
    }

    @GetMapping("/recommendations/{id}/explanation")
    @Operation(summary = "Why a recommendation was made: per affected datastore the predicted latency before and after, with intervals, and the model")
    public BalancingViews.ExplanationView explanation(@PathVariable @Min(1) long id) {
        return recorder.explanation(id).orElseThrow(() -> new NotFoundException("no explanation for recommendation " + id
                + " (it was not made by the balancing engine, or does not exist)"));
    }

    @GetMapping("/datastores/{name}/maintenance")
    @Operation(summary = "The datastore's maintenance mode and, while it is entering, each disk and VM home still on it with where it"
            + " stands in the evacuation (moving, recommended, moved, fault, failed, dismissed, unplanned, back)")
    public BalancingViews.MaintenanceStatusView maintenanceStatus(
            @PathVariable @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String name) {
        return maintenance.status(name);
    }

    @PostMapping("/datastores/{name}/maintenance")
    @Operation(summary = "Enter (evacuation recommendations, faults for disks that cannot move) or exit datastore maintenance mode")
    public BalancingViews.MaintenanceView maintenance(
            @PathVariable @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String name,
            @Valid @RequestBody MaintenanceRequest r) {
        return r.enter() ? maintenance.enter(name, r.ignoreAffinity()) : maintenance.exit(name);
    }

    @PostMapping("/clusters/{clusterId}/placement")
    @Operation(summary = "Initial placement (RecommendDatastores): ranked datastores for a new disk with predicted latency")
    public BalancingViews.PlacementResult placement(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId,
            @Valid @RequestBody PlacementRequest r) {
        queries.cluster(clusterId);
        InitialPlacement.Objective objective = "basil".equals(r.objective())
                ? InitialPlacement.Objective.BASIL_MIN_NORMALIZED_LOAD : InitialPlacement.Objective.PESTO_BALANCE;
        return placement.recommend(clusterId, r.sizeGB(), r.homeGB() == null ? 0 : r.homeGB(),
                r.workload() == null ? null : r.workload().toWorkload(), r.vm(), r.hostId(),
                objective);
    }

    @GetMapping("/datastores/{name}/capacity")
    @Operation(summary = "Capacity planning (Pesto §5.5): Q_max, Q_alpha, how many more disks of a workload fit, L_alpha")
    public BalancingViews.CapacityView capacity(
            @PathVariable @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String name,
            @RequestParam(required = false) @DecimalMin("0.0") @DecimalMax("4096") Double oio,
            @RequestParam(required = false) @DecimalMin(value = "0.0", inclusive = false) @DecimalMax("4096") Double ioSizeKB,
            @RequestParam(required = false) @DecimalMin("0.0") @DecimalMax("100") Double readPct,
            @RequestParam(required = false) @DecimalMin("0.0") @DecimalMax("100") Double randomPct,
            @RequestParam(required = false) @DecimalMin(value = "0.0", inclusive = false) @DecimalMax("65536") Double sizeGB,
            @RequestParam(required = false) @DecimalMin(value = "0.0", inclusive = false) @DecimalMax("100000") Double latencyMs,
            @RequestParam(required = false) @DecimalMin(value = "0.0", inclusive = false) @DecimalMax(value = "1.0", inclusive = false) Double alpha) {
        return capacity.capacity(name, oio, ioSizeKB, readPct, randomPct, sizeGB, latencyMs, alpha);
    }
}
