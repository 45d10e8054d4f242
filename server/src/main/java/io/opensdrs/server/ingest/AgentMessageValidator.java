package io.opensdrs.server.ingest;

import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.DatastoreState;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.agent.v1.InjectorPoint;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.LatencyPercentile;
import io.opensdrs.shared.agent.v1.RegisterRequest;
import io.opensdrs.shared.agent.v1.VisibleDatastore;

import java.util.List;
import java.util.Optional;

/**
 * Checks every field of what agents send (SPEC §5: every external input is validated; bad
 * input gets an error naming the field and changes nothing). Field paths use the proto names,
 * e.g. {@code disk_stats.samples[3].read_share}.
 */
public final class AgentMessageValidator {

    static final int MAX_NAME = 255;
    static final int MAX_SAMPLES = 100_000;

    private AgentMessageValidator() {
    }

    /** The first problem found, naming the field; empty when the message is valid. */
    public static Optional<String> check(AgentMessage m) {
        if (m.hasStreamSamples()) {
            // the server reads every disk's IO from vCenter, whose finest sample is 20 s; it asks no agent for seconds
            return Optional.of("stream_samples is not accepted: since contract minor 3 the server reads every disk's"
                    + " statistics from vCenter's performance counters and sends no SledsWatch");
        }
        if (m.getSeq() <= 0) {
            return Optional.of("seq must be > 0");
        }
        switch (m.getBodyCase()) {
            case DISK_STATS:
                return check(m.getDiskStats());
            case DATASTORE_STATE:
                return check(m.getDatastoreState());
            case INJECTOR_RESULT:
                return check(m.getInjectorResult());
            case BUFFER_REPORT:
                return m.getBufferReport().getBuffered() > m.getBufferReport().getCapacity()
                        && m.getBufferReport().getCapacity() > 0
                        ? Optional.of("buffer_report.buffered must not exceed buffer_report.capacity")
                        : Optional.empty();
            default:
                return Optional.of("body must be one of disk_stats, datastore_state, injector_result, buffer_report");
        }
    }

    static Optional<String> check(DiskStatsBatch b) {
        return check("disk_stats.", b.getHost(), b.getSamplesList());
    }

    /** A host's per-disk windows under the field prefix {@code p}. */
    private static Optional<String> check(String p, String host, List<DiskWindowStats> samples) {
        if (isBlank(host, MAX_NAME)) {
            return Optional.of(p + "host must be a non-empty name of at most 255 characters");
        }
        if (samples.isEmpty() || samples.size() > MAX_SAMPLES) {
            return Optional.of(p + "samples must hold 1 to " + MAX_SAMPLES + " samples");
        }
        for (int i = 0; i < samples.size(); i++) {
            DiskWindowStats s = samples.get(i);
            String f = p + "samples[" + i + "].";
            if (isBlank(s.getVm(), MAX_NAME)) {
                return Optional.of(f + "vm must be a non-empty name of at most 255 characters");
            }
            if (s.getDiskKey() < 0) {
                return Optional.of(f + "disk_key must be >= 0");
            }
            if (isBlank(s.getDatastore(), MAX_NAME)) {
                return Optional.of(f + "datastore must be a non-empty name of at most 255 characters");
            }
            if (s.getDiskFile().length() > 1024) {
                return Optional.of(f + "disk_file must be at most 1024 characters");
            }
            if (s.getWindowStartMs() <= 0) {
                return Optional.of(f + "window_start_ms must be > 0 (epoch milliseconds)");
            }
            if (s.getWindowSeconds() == 0 || s.getWindowSeconds() > 86_400) {
                return Optional.of(f + "window_seconds must be in 1..86400");
            }
            if (s.getReads() + s.getWrites() > s.getIoCount() && s.getIoCount() >= 0) {
                return Optional.of(f + "reads + writes must not exceed io_count");
            }
            Optional<String> e = nonNegative(f + "mean_outstanding_ios", s.getMeanOutstandingIos())
                    .or(() -> nonNegative(f + "mean_latency_ms", s.getMeanLatencyMs()))
                    .or(() -> nonNegative(f + "mean_io_size_kb", s.getMeanIoSizeKb()))
                    .or(() -> fraction(f + "read_share", s.getReadShare()))
                    .or(() -> fraction(f + "randomness", s.getRandomness()));
            if (e.isPresent()) {
                return e;
            }
            for (int j = 0; j < s.getLatencyPercentilesCount(); j++) {
                LatencyPercentile lp = s.getLatencyPercentiles(j);
                String g = f + "latency_percentiles[" + j + "].";
                if (!(lp.getPercentile() >= 0 && lp.getPercentile() <= 100)) {
                    return Optional.of(g + "percentile must be in 0..100");
                }
                Optional<String> le = nonNegative(g + "latency_ms", lp.getLatencyMs());
                if (le.isPresent()) {
                    return le;
                }
            }
        }
        return Optional.empty();
    }

    static Optional<String> check(DatastoreState s) {
        String p = "datastore_state.";
        if (isBlank(s.getDatastore(), MAX_NAME)) {
            return Optional.of(p + "datastore must be a non-empty name of at most 255 characters");
        }
        if (isBlank(s.getHost(), MAX_NAME)) {
            return Optional.of(p + "host must be a non-empty name of at most 255 characters");
        }
        if (s.getPeriodEndMs() <= 0) {
            return Optional.of(p + "period_end_ms must be > 0 (epoch milliseconds)");
        }
        return nonNegative(p + "outstanding_ios", s.getOutstandingIos())
                .or(() -> nonNegative(p + "mean_latency_ms", s.getMeanLatencyMs()));
    }

    static Optional<String> check(InjectorResult r) {
        String p = "injector_result.";
        if (isBlank(r.getDatastore(), MAX_NAME)) {
            return Optional.of(p + "datastore must be a non-empty name of at most 255 characters");
        }
        if (isBlank(r.getRunId(), 128)) {
            return Optional.of(p + "run_id must be a non-empty id of at most 128 characters");
        }
        if (r.getStartedMs() <= 0 || r.getFinishedMs() < r.getStartedMs()) {
            return Optional.of(p + "finished_ms must be >= started_ms > 0");
        }
        if (r.getMode() != io.opensdrs.shared.agent.v1.InjectorMode.REAL_IO
                && r.getMode() != io.opensdrs.shared.agent.v1.InjectorMode.EMULATED) {
            return Optional.of(p + "mode must be REAL_IO or EMULATED");
        }
        if (r.getIoSizeKb() == 0) {
            return Optional.of(p + "io_size_kb must be > 0");
        }
        Optional<String> e = fraction(p + "read_share", r.getReadShare()).or(() -> fraction(p + "randomness", r.getRandomness()));
        if (e.isPresent()) {
            return e;
        }
        if (r.getPointsCount() > 1000) {
            return Optional.of(p + "points must hold at most 1000 points");
        }
        if (r.hasDesignPoint()) {
            // one point of Romano's calibration design: one level, at the design's O, Z, R and X
            io.opensdrs.shared.agent.v1.WorkloadPoint d = r.getDesignPoint();
            if (!(d.getOutstandingIos() >= 1 && d.getOutstandingIos() <= 1024)) {
                return Optional.of(p + "design_point.outstanding_ios must be between 1 and 1024");
            }
            if (!(d.getIoSizeKb() > 0 && d.getIoSizeKb() <= 65536)) {
                return Optional.of(p + "design_point.io_size_kb must be > 0 and at most 65536");
            }
            if (!(d.getReadPct() >= 0 && d.getReadPct() <= 100) || !(d.getRandomPct() >= 0 && d.getRandomPct() <= 100)) {
                return Optional.of(p + "design_point.read_pct and random_pct must be between 0 and 100");
            }
            if (r.getValid() && r.getPointsCount() != 1) {
                return Optional.of(p + "points must hold exactly 1 point in a valid calibration run (design_point set)");
            }
        } else if (r.getValid() && r.getPointsCount() < 2) {
            return Optional.of(p + "points must hold at least 2 points in a valid run");
        }
        for (int i = 0; i < r.getPointsCount(); i++) {
            InjectorPoint pt = r.getPoints(i);
            String f = p + "points[" + i + "].";
            if (pt.getTargetOio() == 0) {
                return Optional.of(f + "target_oio must be > 0");
            }
            Optional<String> pe = nonNegative(f + "measured_oio", pt.getMeasuredOio())
                    .or(() -> nonNegative(f + "iops", pt.getIops()))
                    .or(() -> nonNegative(f + "duration_s", pt.getDurationS()))
                    .or(() -> nonNegative(f + "interference", pt.getInterference()));
            if (pe.isPresent()) {
                return pe;
            }
            if (r.getValid() && !(pt.getMeanLatencyMs() > 0 && Double.isFinite(pt.getMeanLatencyMs()))) {
                return Optional.of(f + "mean_latency_ms must be a finite number > 0 in a valid run");
            }
        }
        return Optional.empty();
    }

    /** Register has no seq; its problems are returned in RegisterResponse.reason. */
    public static Optional<String> check(RegisterRequest r) {
        if (isBlank(r.getAgentId(), 128)) {
            return Optional.of("agent_id must be a non-empty id of at most 128 characters");
        }
        if (isBlank(r.getHost(), MAX_NAME)) {
            return Optional.of("host must be a non-empty name of at most 255 characters");
        }
        if (r.getAgentVersion().length() > 64) {
            return Optional.of("agent_version must be at most 64 characters");
        }
        if (r.getContractMinor() < 1) {
            return Optional.of("contract_minor must be >= 1 (CONTRACT_MINOR_VERSION)");
        }
        for (int i = 0; i < r.getDatastoresCount(); i++) {
            VisibleDatastore d = r.getDatastores(i);
            String f = "datastores[" + i + "].";
            if (isBlank(d.getName(), MAX_NAME)) {
                return Optional.of(f + "name must be a non-empty name of at most 255 characters");
            }
            if (d.getUrl().length() > 1024 || d.getLocalPath().length() > 1024) {
                return Optional.of(f + "url and local_path must be at most 1024 characters");
            }
            if (Long.compareUnsigned(d.getFreeBytes(), d.getCapacityBytes()) > 0 || d.getCapacityBytes() < 0) {
                return Optional.of(f + "free_bytes must not exceed capacity_bytes");
            }
        }
        return Optional.empty();
    }

    private static boolean isBlank(String s, int max) {
        return s == null || s.isBlank() || s.length() > max;
    }

    private static Optional<String> nonNegative(String field, double v) {
        return v >= 0 && Double.isFinite(v) ? Optional.empty() : Optional.of(field + " must be a finite number >= 0, got " + v);
    }

    private static Optional<String> fraction(String field, double v) {
        return v >= 0 && v <= 1 ? Optional.empty() : Optional.of(field + " must be in 0..1, got " + v);
    }
}
