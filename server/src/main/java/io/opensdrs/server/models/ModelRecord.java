package io.opensdrs.server.models;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One entry of a datastore's model history.
 *
 * @param source {@code injector} (a workload-injector run, Pesto §5.1), {@code passive} (the
 *     datastore's observed periods, Pesto §5.1.1) or {@code default} (Pesto §5.1.3, not stored)
 */
public record ModelRecord(Long id, String datastore, String kind, String source, boolean valid, Double rSquared,
                          int points, Map<String, Double> parameters, List<FitPoint> fitPoints,
                          String invalidReason, Instant fittedAt) {
}
