package io.opensdrs.server.api;

import io.opensdrs.server.capture.CaptureViews;
import io.opensdrs.server.capture.ClusterCapture;
import io.opensdrs.server.inventory.InventoryRepository;
import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.problems.InvalidFieldException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Pattern;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** What the server has observed of a datastore cluster, for {@code sdrs capture} to write as a scenario file. */
@RestController
@RequestMapping("/api/v1/clusters")
@Tag(name = "clusters")
public class CaptureController {

    private final InventoryQueries queries;
    private final ClusterCapture capture;
    private final ClustersController clusters;

    public CaptureController(InventoryQueries queries, ClusterCapture capture, ClustersController clusters) {
        this.queries = queries;
        this.capture = capture;
        this.clusters = clusters;
    }

    @GetMapping("/{clusterId}/capture")
    @Operation(summary = "What the server has observed of a datastore cluster: its datastores (space, the model in use with"
            + " its predictions for the injector's random reads, the IO-weighted mean latency, mean OIO and IOPS measured over"
            + " the retained windows and since the newest placement change), the hosts and the cluster's datastores each"
            + " mounts, the VMs with their disks, each disk's workload (O, Z, R, X, IOPS, latency) per UTC hour of the day"
            + " from the raw windows read from vCenter, and the cluster's Storage DRS rules; last (ISO-8601, e.g. PT1H): only"
            + " the windows starting within that span before the newest stored one")
    public CaptureViews.Capture capture(
            @PathVariable @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String clusterId,
            @RequestParam(required = false) String last) {
        java.time.Duration span = null;
        if (last != null) {
            try {
                span = java.time.Duration.parse(last);
            } catch (java.time.format.DateTimeParseException e) {
                throw new InvalidFieldException("last", "must be an ISO-8601 duration such as PT1H, got '" + last + "'");
            }
            if (span.isNegative() || span.isZero()) {
                throw new InvalidFieldException("last", "must be longer than zero, got " + last);
            }
        }
        InventoryRepository.ClusterRow cluster = queries.cluster(clusterId);
        String kind = queries.settings(clusterId).getModelKind();
        List<CaptureViews.Rule> rules = clusters.rules(clusterId).stream()
                .map(r -> new CaptureViews.Rule(r.kind(), r.name(), r.enabled(), r.members())).toList();
        return capture.capture(cluster.moid(), cluster.name(), kind, rules, span);
    }
}
