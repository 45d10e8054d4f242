package io.opensdrs.server.settings;

import io.opensdrs.balance.sleds.ServiceClass;
import io.opensdrs.server.problems.ApiIds;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.validation.Valid;

/**
 * PUT /api/v1/clusters/{id}/settings: the whole settings object. Ranges from VMware's SDRS
 * documentation (SPEC §4): space threshold 50–100 %, latency threshold 5–100 ms.
 */
public record SettingsRequest(
        @NotBlank String modelKind,
        @NotNull @Pattern(regexp = "manual|automated", message = "must be manual or automated") String automationLevel,
        @NotNull @Min(50) @Max(100) Integer spaceThresholdPct,
        @NotNull @Min(1) @Max(50) Integer minSpaceDifferencePct,
        @NotNull @Min(5) @Max(100) Integer latencyThresholdMs,
        @NotNull @Min(1) @Max(100) Integer ioImbalanceThreshold,
        @NotNull @Min(60) @Max(43200) Integer loadBalanceIntervalMinutes,
        @NotNull Boolean ioLoadBalanceEnabled,
        @NotNull Boolean keepVmdksTogether,
        @NotNull @DecimalMin(value = "0.0", inclusive = false) @DecimalMax(value = "1.0", inclusive = false) Double congestionAlpha,
        // Added with the balancing engine; optional so that earlier clients keep working: null keeps the stored value.
        @Pattern(regexp = "manual|automated|inherit", message = "must be manual, automated or inherit (the cluster's level)")
        String spaceAutomationLevel,
        @Pattern(regexp = "manual|automated|inherit", message = "must be manual, automated or inherit (the cluster's level)")
        String ioAutomationLevel,
        @Pattern(regexp = "auto|per-io|basil|pesto|romano|latency-greedy|space-only", message = "must be auto, per-io, basil, pesto, romano, latency-greedy or space-only") String strategy,
        @Pattern(regexp = "utilization|freeSpace", message = "must be utilization or freeSpace") String spaceThresholdMode,
        @Min(1) @Max(1_000_000) Integer freeSpaceThresholdGb,
        @Valid @Size(max = 10_000) java.util.List<VmOverrideEntry> vmOverrides,
        @Valid @Size(max = 64) java.util.List<ServiceClassEntry> serviceClasses,
        // vCenter's "Turn ON vSphere Storage DRS"; null keeps it
        Boolean storageDrsEnabled,
        // vCenter's advanced option IgnoreAffinityRulesForMaintenance; null keeps it
        Boolean ignoreAffinityForMaintenance,
        // rule enforcement's and VM evacuation's own levels (vCenter's automationOverrides); null keeps them
        @Pattern(regexp = "manual|automated|inherit", message = "must be manual, automated or inherit (the cluster's level)")
        String ruleAutomationLevel,
        @Pattern(regexp = "manual|automated|inherit", message = "must be manual, automated or inherit (the cluster's level)")
        String evacuationAutomationLevel) {

    /** A per-VM automation override (SPEC §4) and, optionally, the VM's SLEDS service class. */
    public record VmOverrideEntry(
            @NotNull @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String vmId,
            @NotNull @Pattern(regexp = "default|manual|automated|excluded", message = "must be default, manual, automated or excluded")
            String behavior,
            @Pattern(regexp = ApiIds.IDENTIFIER, message = ApiIds.IDENTIFIER_MESSAGE) String serviceClass) {
    }

    /** A SLEDS service class (SPEC §3.5): a bound on its streams' mean response time while their demand, all together, stays within the demand bounds. */
    public record ServiceClassEntry(
            @NotNull @Pattern(regexp = ApiIds.IDENTIFIER, message = ApiIds.IDENTIFIER_MESSAGE) String id,
            @NotNull @DecimalMin(value = "0.1") @DecimalMax(value = "10000") Double deliveryBoundMs,
            @NotNull @DecimalMin(value = "0.0", inclusive = false) Double demandBoundIops,
            @NotNull @DecimalMin(value = "0.0", inclusive = false) Double demandBoundBytesPerSecond,
            // the share of windows the delivery bound may be missed in (SLEDS §3); null: 5
            @DecimalMin(value = "0.0") @DecimalMax(value = "100") Double allowedMissPct) {

        /** The class as the engine reads it. */
        public ServiceClass toServiceClass() {
            return new ServiceClass(id, deliveryBoundMs, demandBoundIops, demandBoundBytesPerSecond,
                    allowedMissPct == null ? ServiceClass.DEFAULT_ALLOWED_MISS_PCT : allowedMissPct);
        }
    }
}
