package io.opensdrs.server.balancing;

import io.opensdrs.balance.DatastoreForecast;
import io.opensdrs.balance.Estimate;
import io.opensdrs.balance.EvacuationCoverage;
import io.opensdrs.balance.Fault;

import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/** Response shapes of the balancing endpoints (and the explanation stored with each recommendation). */
public final class BalancingViews {

    private BalancingViews() {
    }

    /** An engine fault: what could not be done, to what, and why (SPEC §4). Named apart from the API's stored fault. */
    @Schema(name = "EngineFaultView")
    public record FaultView(String vmId, String diskId, String datastoreId, String reasonCode, String message) {
        static FaultView of(Fault f) {
            return new FaultView(f.vmId(), f.diskId(), f.datastoreId(), f.reason() == null ? null : f.reason().wireName(), f.message());
        }
    }

    /** "Run Storage DRS now": the strategy used, the recommendations created (and those applied at once), the faults. */
    public record RunView(long runId, String clusterId, String trigger, String strategy, List<Long> recommendationIds,
                          List<Long> appliedRecommendationIds, List<FaultView> faults, List<String> notes) {
    }

    /** An interval estimate; lower = upper = value when the model gives no interval. */
    public record EstimateView(double value, double lower, double upper) {
        static EstimateView of(Estimate e) {
            return e == null ? null : new EstimateView(e.value(), e.lower(), e.upper());
        }
    }

    /**
     * One affected datastore: predicted mean latency before and after the move, p90 before and projected after, and the
     * model. {@code idleBefore} / {@code idleAfter}: the datastore carries no VM IO then, and its latency and p90 on that
     * side are null — no IO sees a latency there, and the model's answer for no load is no prediction of one. The p90
     * after is also null when the projection (the observed p90 shifted by the model's change) floors at 0: the model's
     * fall is larger than the p90, which projects nothing ({@link DatastoreForecast#p90Change}).
     */
    public record DatastoreForecastView(String datastoreId, String datastoreName, String model, EstimateView latencyBeforeMs,
                                        EstimateView latencyAfterMs, Double p90BeforeMs, Double p90AfterMs, boolean idleBefore,
                                        boolean idleAfter) {
        static DatastoreForecastView of(DatastoreForecast f, ClusterStateAssembler.Assembled a) {
            // the assembler knows when a line is Pesto's default model (§5.1.3), which the engine sees as an ordinary Pesto line
            String model = io.opensdrs.balance.DefaultModelRule.MODEL_NAME.equals(a.modelSource().get(f.datastoreId()))
                    ? io.opensdrs.balance.DefaultModelRule.MODEL_NAME : f.model();
            return new DatastoreForecastView(f.datastoreId(), a.datastoreName(f.datastoreId()), model,
                    f.idleBefore() ? null : EstimateView.of(f.latencyBeforeMs()), f.idleAfter() ? null : EstimateView.of(f.latencyAfterMs()),
                    f.idleBefore() ? null : f.p90BeforeMs(), f.idleAfter() || !(f.p90AfterMs() > 0) ? null : f.p90AfterMs(),
                    f.idleBefore(), f.idleAfter());
        }
    }

    /** Why a recommendation was made (beyond the seeds: cost and benefit on interval bounds, Pesto Eqs. 10–11). */
    public record ExplanationView(long recommendationId, Long runId, String strategy, String reasonCode, String vmId,
                                  List<String> diskIds, String sourceDatastoreId, String destinationDatastoreId, double sizeGb,
                                  boolean autoApplicable, int wave, String summary, List<DatastoreForecastView> datastores,
                                  EstimateView cost, EstimateView benefit, String createdAt) {
    }

    /**
     * A cluster's SLEDS state (SPEC §3.5) at its last controller step ({@code at}; null before
     * one): each service class with its SLO and the IOPS-weighted mean response time its streams
     * had ({@code meetsSlo} null without a measured stream), each classified stream measured, its
     * limit (null: unthrottled), and what the step did.
     */
    public record SledsView(String clusterId, String at, List<ClassView> classes, List<StreamView> streams, List<String> actions) {

        /**
         * A class: its SLO, its last window ({@code meetsSlo}), and over its last {@code windows} statistics windows the
         * {@code missedWindows} in which it missed its delivery bound while within its demand bounds; {@code compliant}
         * (null before a window) whether those are within the {@code allowedMissPct} its SLO allows (SLEDS §3).
         */
        public record ClassView(String id, double deliveryBoundMs, double demandBoundIops, double demandBoundBytesPerSecond,
                                double allowedMissPct, Double latencyMs, Boolean meetsSlo, int streams, int windows,
                                int missedWindows, Boolean compliant) {
        }

        /** A stream as sampled: over its newest second, or its newest statistics window ({@code windowSeconds}). */
        public record StreamView(String host, String vmId, String vmName, int diskKey, String datastoreId, String datastoreName,
                                 String classId, int windowSeconds, double iops, double bytesPerSecond, double latencyMs, Double iopsLimit,
                                 Double bytesPerSecondLimit) {
        }
    }

    /** A datastore's maintenance state and the evacuation it needs. */
    public record MaintenanceView(String datastoreId, String datastoreName, String clusterId, String state, boolean ignoreAffinity,
                                  int disksRemaining, int vmHomesRemaining, List<Long> recommendationIds,
                                  List<Long> appliedRecommendationIds,
                                  List<FaultView> faults, List<String> notes) {
    }

    /**
     * A datastore's maintenance mode and, while it is entering, every disk and VM home still on it
     * with where it stands in the evacuation (what keeps the datastore entering).
     */
    public record MaintenanceStatusView(String datastoreId, String datastoreName, String clusterId, String state,
                                        boolean ignoreAffinity, boolean evacuationPlanned, List<LeftView> left) {
    }

    /**
     * One disk ({@code diskKey}) or VM home ({@code diskKey} null) on the datastore, of {@code sizeBytes} (a home's
     * files, its swap file included): {@code status} one of {@link EvacuationCoverage.Status}, lower case; the
     * recommendation that moves it, if any; a detail (the fault's reason, the relocation's progress).
     */
    public record LeftView(String vmId, String vmName, Integer diskKey, String what, long sizeBytes, String status,
                           Long recommendationId, String detail) {
        static LeftView of(EvacuationCoverage.Left l) {
            EvacuationCoverage.Item i = l.item();
            return new LeftView(i.vmId(), i.vmName(), i.diskKey(), i.swapFile() ? "swap file" : i.diskKey() == null ? "home" : "disk " + i.diskKey(),
                    i.sizeBytes(), l.status().name().toLowerCase(java.util.Locale.ROOT), l.recommendationId(), l.detail());
        }
    }

    /** One placement: a new VM's disks to a datastore, with the ranked alternatives and the predicted latencies. */
    public record PlacementView(String vmId, List<String> diskIds, String datastoreId, String datastoreName, String reasonCode,
                                List<RankedDatastore> ranked, String summary, List<DatastoreForecastView> forecasts) {
    }

    public record RankedDatastore(int rank, String datastoreId, String datastoreName, Double predictedLatencyMs, String model) {
    }

    public record PlacementResult(String clusterId, String objective, List<PlacementView> placements, List<FaultView> faults) {
    }

    /** Pesto §5.5 capacity planning of one datastore. */
    public record CapacityView(String datastore, String datastoreId, String model, double currentOutstandingIos, double qMax,
                               double qAlpha, long disksThatFit, long byLatency, long byThroughput, long bySpace, double lAlpha,
                               double alpha, double latencyMs) {
    }

    /**
     * Pesto §5.5 capacity planning of a whole cluster for {@code count} workloads alike: {@code fits} of them fit
     * (the sum over the datastores), with the latency threshold, α and disk size each was planned with.
     */
    public record CapacityPlanView(String clusterId, double latencyThresholdMs, double alpha, double sizeGbEach, int count, long fits,
                                   boolean allFit, List<DatastoreCapacityView> datastores) {
    }

    /**
     * One datastore's share of a capacity plan: Q_max (Pesto Eq. 12), Q_α (Eq. 13), its current outstanding IOs, how many
     * more workloads each limit allows ({@code bySpace} null when the workloads take no space) and the least of them,
     * {@code fits} (0 for a datastore that takes no disks, such as one in maintenance mode).
     */
    public record DatastoreCapacityView(String datastoreId, String datastore, String model, double currentOutstandingIos, double qMax,
                                        double qAlpha, long byLatency, long byThroughput, Long bySpace, long fits) {
    }
}
