package io.opensdrs.server.balancing;

import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.problems.InvalidFieldException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The capacity planner's what-if (Pesto §5.5): how many workloads like one stated fit in a datastore cluster, per
 * datastore, from the cluster's current models and load. Reads only; bad input is a 400 naming the field.
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "balancing")
public class CapacityPlanController {

    private final CapacityAdvisor capacity;

    public CapacityPlanController(CapacityAdvisor capacity) {
        this.capacity = capacity;
    }

    /**
     * POST /clusters/{id}/capacity-plan body: {@code count} workloads like {@code workload}, each with disks of
     * {@code sizeGB} in all (absent: the cluster's average disk size).
     */
    public record CapacityPlanRequest(
            @NotNull @Valid WorkloadRequest workload,
            @NotNull @Min(1) @Max(100000) Integer count,
            @DecimalMin(value = "0.0", inclusive = false) @DecimalMax("65536") Double sizeGB) {
    }

    @PostMapping("/clusters/{clusterId}/capacity-plan")
    @Operation(summary = "Capacity planner (Pesto §5.5): how many of count workloads fit, per datastore the least of Q_max"
            + " (Eq. 12), Q_alpha (Eq. 13) and space, from the cluster's current models and load")
    public BalancingViews.CapacityPlanView plan(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId,
            @Valid @RequestBody CapacityPlanRequest r) {
        // a workload of no outstanding IOs would fit without end under Eqs. 12 and 13
        if (!(r.workload().oio() > 0)) {
            throw new InvalidFieldException("workload.oio", "must be greater than 0");
        }
        return capacity.plan(clusterId, r.workload().toWorkload(), r.sizeGB(), r.count());
    }
}
