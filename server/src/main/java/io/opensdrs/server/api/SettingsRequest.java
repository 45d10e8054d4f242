package io.opensdrs.server.api;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

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
        @NotNull @DecimalMin(value = "0.0", inclusive = false) @DecimalMax(value = "1.0", inclusive = false) Double congestionAlpha) {
}
