package io.opensdrs.server.api;

import io.opensdrs.server.inventory.InventoryRepository;
import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.stats.StatisticsRepository;
import io.opensdrs.server.stats.WorkloadPercentiles;
import io.opensdrs.server.stats.vcenter.VCenterStatistics;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.util.List;

/** Virtual disks from the inventory, and each disk's live percentiles. */
@RestController
@RequestMapping("/api/v1/disks")
@Tag(name = "disks")
public class DisksController {

    private final InventoryRepository inventory;
    private final WorkloadPercentiles percentiles;
    private final StatisticsRepository raw;

    public DisksController(InventoryRepository inventory, WorkloadPercentiles percentiles, StatisticsRepository raw) {
        this.inventory = inventory;
        this.percentiles = percentiles;
        this.raw = raw;
    }

    @GetMapping("/{vm}/{diskKey}/windows")
    @Operation(summary = "The newest statistics windows stored of one virtual disk, as read from vCenter's counters,"
            + " newest first (vm: managed object id)")
    public List<ApiViews.DiskWindowView> windows(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String vm,
            @PathVariable @Min(0) int diskKey,
            @RequestParam(defaultValue = "6") @Min(1) @Max(180) int limit) {
        return raw.recentWindows(VCenterStatistics.SOURCE, vm, diskKey, limit, 4 * limit + 20).stream()
                .map(w -> new ApiViews.DiskWindowView(java.time.Instant.ofEpochMilli(w.getWindowStartMs()).toString(),
                        java.time.Instant.ofEpochMilli(w.getWindowStartMs() + w.getWindowSeconds() * 1000L).toString(),
                        w.getWindowSeconds(), w.getDatastore(), w.getReads(), w.getWrites(), w.getBytesRead(), w.getBytesWritten(),
                        w.getMeanOutstandingIos(), w.getMeanLatencyMs(), w.getMeanIoSizeKb(), w.getReadShare(), w.getRandomness()))
                .toList();
    }

    @GetMapping
    @Operation(summary = "Virtual disks (key, file, size, datastore), optionally on one datastore")
    public List<ApiViews.DiskView> list(
            @RequestParam(required = false) @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String datastore,
            @RequestParam(defaultValue = "1000") @Min(1) @Max(10000) int limit) {
        return inventory.disks(datastore, limit).stream().map(d -> new ApiViews.DiskView(d.vm(), d.vmName(), d.diskKey(), d.file(),
                d.sizeBytes(), d.datastore())).toList();
    }

    @GetMapping("/{vm}/{diskKey}/percentiles")
    @Operation(summary = "p50, p70, p90 of one virtual disk over one window; vm as the agents report it (name or moid)")
    public ApiViews.PercentilesView percentiles(
            @PathVariable @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String vm,
            @PathVariable @Min(0) int diskKey,
            @RequestParam(required = false) String window) {
        Duration w = DatastoresController.window(percentiles, window);
        String id = WorkloadPercentiles.diskId(vm, diskKey);
        percentiles.requireRebuilt();
        return percentiles.disk(id, w).map(v -> DatastoresController.view(id, v))
                .orElseThrow(() -> new NotFoundException("no statistics for disk " + id));
    }
}
