package io.opensdrs.server.api;

import io.opensdrs.server.rules.VmAntiAffinityRules;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.util.List;

/**
 * {@code POST /clusters/{id}/rules}: a VM anti-affinity rule to create in vCenter (SPEC §4). VMDK
 * anti-affinity and keep-together are a VM's own settings in vCenter and are not created here.
 */
public record RuleRequest(
        @NotNull @Pattern(regexp = "vmAntiAffinity", message = "must be vmAntiAffinity (VMDK rules are a VM's own setting in vCenter)")
        String kind,
        @NotBlank @Size(max = VmAntiAffinityRules.MAX_NAME) String name,
        @NotNull @Size(min = 2, max = 1000, message = "must list 2 to 1000 VMs")
        List<@NotNull @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String> vmIds) {
}
