package io.opensdrs.server.migration;

import java.time.Instant;

/** A recommendation as the applier sees it (table recommendation). */
public record Recommendation(long id, String clusterId, String reasonCode, RecommendationState state, boolean cancelRequested,
                             String faultType, String faultMessage, Instant createdAt, Instant updatedAt) {
}
