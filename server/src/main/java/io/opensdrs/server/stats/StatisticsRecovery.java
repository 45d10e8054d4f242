package io.opensdrs.server.stats;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Rebuilds the in-memory P² windows, and each disk's newest stored window, from the retained raw
 * batches at start-up, before the gRPC server accepts agents and before vCenter's counters are read
 * (both start in later lifecycle phases or after the application is ready). After a kill -9 the percentiles
 * therefore again count every accepted sample within the retention bound exactly once.
 */
@Component
public class StatisticsRecovery implements SmartLifecycle {

    /** Before {@code AgentGrpcServer.PHASE}. */
    public static final int PHASE = 100;

    private static final Logger log = LoggerFactory.getLogger(StatisticsRecovery.class);

    private final StatisticsRepository raw;
    private final WorkloadPercentiles percentiles;
    private final DiskWindowIngestion ingestion;
    private volatile boolean running;

    public StatisticsRecovery(StatisticsRepository raw, WorkloadPercentiles percentiles, DiskWindowIngestion ingestion) {
        this.raw = raw;
        this.percentiles = percentiles;
        this.ingestion = ingestion;
    }

    @Override
    public void start() {
        long t0 = System.nanoTime();
        ingestion.clear();
        raw.forEach(ingestion::replayed);
        log.info("rebuilt P² percentiles from {} retained samples in {} ms", percentiles.folded(),
                (System.nanoTime() - t0) / 1_000_000);
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
