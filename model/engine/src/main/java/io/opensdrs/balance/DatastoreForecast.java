package io.opensdrs.balance;

/**
 * What a recommendation expects of one datastore it touches: the model's predicted mean
 * latency before and after the move (with the model's interval where it has one), the 90th
 * percentile SDRS compares with its threshold (observed before, projected after by the
 * model's relative change), and which model predicted it.
 */
public record DatastoreForecast(String datastoreId, String model, Estimate latencyBeforeMs, Estimate latencyAfterMs,
                                double p90BeforeMs, double p90AfterMs) {
}
