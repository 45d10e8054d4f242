package io.opensdrs.balance.sleds;

import java.util.Set;

/**
 * One stream's (a virtual disk's IO from one host) measurements over the last window, and the
 * resources it uses — for a virtual disk, its datastore. SLEDS §3 takes the configuration's
 * interconnection pattern as an optional input "to quantify the extent to which streams compete
 * for resources": a stream whose resources are not known ({@code resources} empty) is taken to
 * compete with every other stream.
 */
public record StreamSample(String streamId, String classId, double iops, double bytesPerSecond, double meanLatencyMs,
                           Set<String> resources) {

    public StreamSample {
        resources = resources == null ? Set.of() : Set.copyOf(resources);
    }

    /** A stream whose resources are not known: it competes with every other stream. */
    public StreamSample(String streamId, String classId, double iops, double bytesPerSecond, double meanLatencyMs) {
        this(streamId, classId, iops, bytesPerSecond, meanLatencyMs, Set.of());
    }

    /** Whether the two streams may compete: they share a resource, or either's resources are unknown. */
    public boolean competesWith(StreamSample other) {
        if (resources.isEmpty() || other.resources.isEmpty()) {
            return true;
        }
        for (String r : resources) {
            if (other.resources.contains(r)) {
                return true;
            }
        }
        return false;
    }
}
