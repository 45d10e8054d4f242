package io.opensdrs.model.queueing;

/**
 * One calibration measurement of Noorshams et al. (§IV-C/D): a homogeneous workload of one
 * request class with {@code threads} clients issuing {@code sizeKb} requests over a working set
 * (file set) of {@code fileSetGb}, and what its end-to-end response times showed — their mean,
 * and, where the response-time distribution separates into a cache mode and a RAID mode
 * (§IV-D.2, "requests served by the cache are recognizable by response times close to the
 * response times when having a small, fully cached file set"), the share of requests in the
 * cache mode and their mean. {@code hitShare} is NaN when the distribution was not separated.
 */
public record CalibrationPoint(RequestClass requestClass, double threads, double sizeKb, double fileSetGb,
                               double responseMs, double hitShare, double hitResponseMs) {

    public CalibrationPoint {
        if (requestClass == null) {
            throw new IllegalArgumentException("calibration point needs a request class");
        }
        if (!(threads >= 1) || Double.isInfinite(threads)) {
            throw new IllegalArgumentException("threads must be a finite number >= 1, got " + threads);
        }
        if (!(sizeKb > 0) || Double.isInfinite(sizeKb)) {
            throw new IllegalArgumentException("request size (size_kb) must be > 0, got " + sizeKb);
        }
        if (!(fileSetGb > 0) || Double.isInfinite(fileSetGb)) {
            throw new IllegalArgumentException("file set size (file_set_gb) must be > 0, got " + fileSetGb);
        }
        if (!(responseMs > 0) || Double.isInfinite(responseMs)) {
            throw new IllegalArgumentException("response time (response_ms) must be > 0, got " + responseMs);
        }
        if (!Double.isNaN(hitShare) && !(hitShare >= 0 && hitShare <= 1)) {
            throw new IllegalArgumentException("cache-mode share (hit_share) must be in [0, 1] or NaN, got " + hitShare);
        }
        if (!Double.isNaN(hitShare) && hitShare > 0 && !(hitResponseMs > 0 && hitResponseMs <= responseMs)) {
            throw new IllegalArgumentException("cache-mode response time (hit_response_ms) must be in (0, response_ms], got "
                    + hitResponseMs);
        }
    }

    /** A point whose response-time distribution was not separated: only the mean is known. */
    public static CalibrationPoint mean(RequestClass c, double threads, double sizeKb, double fileSetGb, double responseMs) {
        return new CalibrationPoint(c, threads, sizeKb, fileSetGb, responseMs, Double.NaN, Double.NaN);
    }

    boolean separated() {
        return !Double.isNaN(hitShare);
    }
}
