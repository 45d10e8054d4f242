package io.opensdrs.server.migration;

/** Where a recommendation is: proposed, being applied, or done one way or another. */
public enum RecommendationState {
    PENDING, APPLYING, APPLIED, FAILED, DISMISSED, CANCELLED;

    public boolean terminal() {
        return this != PENDING && this != APPLYING;
    }
}
