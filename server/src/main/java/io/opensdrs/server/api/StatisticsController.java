package io.opensdrs.server.api;

import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.stats.vcenter.StatisticsFaults;
import io.opensdrs.server.stats.vcenter.VCenterStatistics;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Pattern;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.time.Instant;

/** How a datastore cluster's IO statistics are read from vCenter, and what went wrong reading them. */
@RestController
@RequestMapping("/api/v1/clusters")
@Tag(name = "clusters")
public class StatisticsController {

    /** Resolved faults stay listed this long after they ended. */
    static final Duration RESOLVED_SHOWN = Duration.ofHours(1);

    private final InventoryQueries queries;
    private final VCenterStatistics statistics;
    private final StatisticsFaults faults;

    public StatisticsController(InventoryQueries queries, VCenterStatistics statistics, StatisticsFaults faults) {
        this.queries = queries;
        this.statistics = statistics;
        this.faults = faults;
    }

    @GetMapping("/{clusterId}/statistics")
    @Operation(summary = "The cluster's IO statistics source (vCenter's realtime performance counters): the newest sample,"
            + " the last read, and its faults (a disk without data, a missing counter, a bad value, vCenter unreachable)")
    public ApiViews.StatisticsView statistics(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId) {
        queries.cluster(clusterId);
        VCenterStatistics.Status s = statistics.status();
        return new ApiViews.StatisticsView("vcenter", VCenterStatistics.INTERVAL_SECONDS, text(s.readAt()), s.readMillis(),
                s.vmsRead(), s.windowsStored(), text(s.newestSample()), s.nextReadIn() == null ? null : s.nextReadIn().toString(), s.lastFailure(),
                faults.of(clusterId, Instant.now().minus(RESOLVED_SHOWN)).stream()
                        .map(f -> new ApiViews.StatisticsFaultView(f.kind(), f.subject(), f.detail(), f.firstSeen().toString(),
                                f.lastSeen().toString(), f.occurrences(), f.active(), text(f.resolvedAt())))
                        .toList());
    }

    private static String text(Instant i) {
        return i == null ? null : i.toString();
    }
}
