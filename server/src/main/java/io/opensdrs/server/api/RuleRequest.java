package io.opensdrs.server.api;

import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.rules.PodRules;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.util.List;

/**
 * {@code POST /clusters/{id}/rules}: a rule to create in vCenter (SPEC §4). {@code vmAntiAffinity}
 * takes a {@code name} and {@code vmIds}; {@code vmdkAntiAffinity} a {@code name}, {@code vmId} and two
 * or more of its {@code diskKeys}; {@code intraVmAffinity} — a VM's own "Keep VMDKs together",
 * replacing the cluster's default for it — {@code vmId} and {@code enabled} (true: kept together).
 */
public record RuleRequest(
        @NotNull @Pattern(regexp = "vmAntiAffinity|vmdkAntiAffinity|intraVmAffinity",
                message = "must be vmAntiAffinity, vmdkAntiAffinity or intraVmAffinity") String kind,
        @Size(max = PodRules.MAX_NAME) String name,
        @Size(min = 2, max = 1000, message = "must list 2 to 1000 VMs")
        List<@NotNull @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String> vmIds,
        @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String vmId,
        @Size(min = 2, max = 64, message = "must list 2 to 64 disks") List<@NotNull Integer> diskKeys,
        Boolean enabled) {
}
