package io.opensdrs.model.queueing;

/** One class of the closed network: {@code threads} clients of one request class issuing {@code sizeKb} requests, no think time. */
public record ClassLoad(RequestClass requestClass, double threads, double sizeKb) {

    public ClassLoad {
        if (requestClass == null) {
            throw new IllegalArgumentException("class load needs a request class");
        }
        if (!(threads >= 0) || Double.isInfinite(threads)) {
            throw new IllegalArgumentException("threads must be a finite number >= 0, got " + threads);
        }
        if (!(sizeKb > 0) || Double.isInfinite(sizeKb)) {
            throw new IllegalArgumentException("request size (size_kb) must be > 0, got " + sizeKb);
        }
    }
}
