package io.opensdrs.server.stats;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether the in-memory statistics ({@link WorkloadPercentiles}, each disk's newest stored window) are
 * rebuilt from the retained raw batches since this start ({@link StatisticsRecovery}), and the gate
 * that keeps everything else after that rebuild: new windows wait to be stored and folded
 * ({@link DiskWindowIngestion}), reads of the percentiles wait ({@link WorkloadPercentiles#datastore},
 * {@link WorkloadPercentiles#disk}), agents are accepted only once it is done ({@link #whenRebuilt}),
 * and the REST API answers 503 "warming" meanwhile ({@link #requireRebuilt}) rather than percentiles
 * of part of the data. The server is healthy while it warms: everything else works.
 *
 * <p>{@code /actuator/health} component {@code statistics}: up, with {@code warming} and the samples
 * replayed so far; down when the rebuild failed (the server then never accepts statistics: the
 * percentiles could no longer count each retained sample once).
 */
@Component("statistics")
public class StatisticsWarmup implements HealthIndicator {

    private final CompletableFuture<Void> rebuilt = new CompletableFuture<>();
    private volatile long replayedSamples;

    /** True until the rebuild after this start has finished (or failed). */
    public boolean warming() {
        return !rebuilt.isDone();
    }

    /** Blocks until the rebuild has finished; throws when it failed. */
    public void await() {
        try {
            rebuilt.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the statistics to be rebuilt", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("rebuilding the statistics from the stored batches failed: " + e.getCause(), e.getCause());
        }
    }

    /** Waits at most {@code timeout} for the rebuild; true when it has finished (false also when it failed). */
    public boolean awaitFor(Duration timeout) {
        try {
            rebuilt.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /** Runs {@code action} once the rebuild has finished (now, on this thread, when it has); never when it failed. */
    public void whenRebuilt(Runnable action) {
        rebuilt.thenRun(action);
    }

    /** For the API: throws {@link StatisticsWarmingException} while warming. */
    public void requireRebuilt() {
        if (warming()) {
            throw new StatisticsWarmingException(replayedSamples);
        }
        await(); // throws when the rebuild failed
    }

    public long replayedSamples() {
        return replayedSamples;
    }

    void replayed(long samples) {
        replayedSamples = samples;
    }

    void done() {
        rebuilt.complete(null);
    }

    void failed(Throwable cause) {
        rebuilt.completeExceptionally(cause);
    }

    @Override
    public Health health() {
        if (rebuilt.isCompletedExceptionally()) {
            Health.Builder down = Health.down().withDetail("replayedSamples", replayedSamples);
            try {
                rebuilt.getNow(null);
            } catch (RuntimeException e) {
                down.withDetail("error", String.valueOf(e.getCause()));
            }
            return down.build();
        }
        return Health.up().withDetail("warming", warming()).withDetail("replayedSamples", replayedSamples).build();
    }
}
