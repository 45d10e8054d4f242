package io.opensdrs.server.api;

import io.opensdrs.server.rules.PodRules;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.util.List;

/**
 * {@code POST /clusters/{id}/rules}: a rule to create in vCenter (SPEC §4). {@code vmAntiAffinity}
 * takes {@code vmIds}; {@code vmdkAntiAffinity} takes {@code vmId} and two or more of its
 * {@code diskKeys}. Keep-together is a setting (the cluster's default, a VM's own in vCenter), not a rule.
 */
public record RuleRequest(
        @NotNull @Pattern(regexp = "vmAntiAffinity|vmdkAntiAffinity", message = "must be vmAntiAffinity or vmdkAntiAffinity")
        String kind,
        @NotBlank @Size(max = PodRules.MAX_NAME) String name,
        @Size(min = 2, max = 1000, message = "must list 2 to 1000 VMs")
        List<@NotNull @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String> vmIds,
        @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String vmId,
        @Size(min = 2, max = 64, message = "must list 2 to 64 disks") List<@NotNull Integer> diskKeys) {
}
