package io.opensdrs.server.balancing;

import io.opensdrs.model.Workload;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;

/** A workload as the plugin states it: OIO, IO size in KB, read and random shares in percent. */
public record WorkloadRequest(
        @NotNull @DecimalMin("0.0") @DecimalMax("4096") Double oio,
        @NotNull @DecimalMin(value = "0.0", inclusive = false) @DecimalMax("4096") Double ioSizeKB,
        @NotNull @DecimalMin("0.0") @DecimalMax("100") Double readPct,
        @NotNull @DecimalMin("0.0") @DecimalMax("100") Double randomPct) {
    public Workload toWorkload() {
        return new Workload(oio, ioSizeKB, readPct / 100, randomPct / 100);
    }
}
