package io.opensdrs.server.stats;

import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.Map;

/**
 * Rebuilds the in-memory P² windows, and each disk's newest stored window, from the retained raw
 * batches after each start. After a kill -9 the percentiles therefore again count every accepted
 * sample within the retention bound exactly once.
 *
 * <p>The rebuild runs on a thread of its own, started once the application is ready, so that the
 * server is up and healthy while a day of statistics is replayed; {@link StatisticsWarmup} keeps the rest
 * after it: the gRPC server accepts agents only once it is done ({@code AgentGrpcServer}, a later
 * phase), vCenter's counters read meanwhile wait to be stored ({@link DiskWindowIngestion}), reads of
 * the percentiles wait and the REST API answers 503 naming the warm-up. So no window is stored or
 * folded while the replay runs: the replay reads exactly the batches stored before this start, each
 * once, in the order stored (P² panes depend on that order), and every later window is folded after
 * them.
 */
@Component
public class StatisticsRecovery implements SmartLifecycle {

    /** Before {@code AgentGrpcServer.PHASE}. */
    public static final int PHASE = 100;

    private static final Logger log = LoggerFactory.getLogger(StatisticsRecovery.class);

    private final StatisticsRepository raw;
    private final WorkloadPercentiles percentiles;
    private final DiskWindowIngestion ingestion;
    private final StatisticsWarmup warmup;
    private volatile boolean running;

    public StatisticsRecovery(StatisticsRepository raw, WorkloadPercentiles percentiles, DiskWindowIngestion ingestion,
                              StatisticsWarmup warmup) {
        this.raw = raw;
        this.percentiles = percentiles;
        this.ingestion = ingestion;
        this.warmup = warmup;
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Once the server is up: on a machine of two cores a replay started in this phase took the
     * CPU the rest of the start (the web server, the agents' endpoint) needed, and the server became
     * healthy a second or more later. Nothing is lost by starting later: the gates are shut from the start.
     */
    @EventListener(ApplicationReadyEvent.class)
    public void rebuildInBackground() {
        Thread t = new Thread(this::rebuild, "statistics-recovery");
        t.setDaemon(true);
        t.start();
    }

    private void rebuild() {
        long t0 = System.nanoTime();
        log.info("rebuilding P² percentiles from the retained samples; the percentiles answer 503 until then");
        try {
            ingestion.clear();
            // first a lower bound of each disk's and datastore's newest sample, from the batches of the
            // last shortest window (a subject without a sample there gets none), then the replay: the
            // P² panes skip the epochs its end would reset away (SlidingPercentiles.replayEndsAt).
            // A bound below the newest skips less, never more, so the state is the same.
            Map<String, Long> newestByDisk = new HashMap<>();
            Map<String, Long> newestByDatastore = new HashMap<>();
            Long newest = raw.newestWindowStart();
            if (newest != null) {
                long shortest = percentiles.windows().stream().mapToLong(java.time.Duration::toMillis).min().orElse(0);
                raw.forEachSince(newest - shortest, batch -> {
                    for (DiskWindowStats s : batch.getSamplesList()) {
                        newestByDisk.merge(WorkloadPercentiles.diskId(s.getVm(), s.getDiskKey()), s.getWindowStartMs(), Math::max);
                        newestByDatastore.merge(s.getDatastore(), s.getWindowStartMs(), Math::max);
                    }
                });
            }
            long scanned = System.nanoTime();
            percentiles.replayEndsAt(newestByDisk, newestByDatastore);
            raw.forEach(batch -> {
                ingestion.replayed(batch);
                warmup.replayed(percentiles.folded());
            });
            log.info("rebuilt P² percentiles from {} retained samples in {} ms ({} ms of it bounding each subject's newest sample)",
                    percentiles.folded(), (System.nanoTime() - t0) / 1_000_000, (scanned - t0) / 1_000_000);
            warmup.done();
        } catch (RuntimeException | Error e) {
            log.error("rebuilding the P² percentiles from the retained samples failed after {} samples: statistics are"
                    + " not accepted until the server is restarted", percentiles.folded(), e);
            warmup.failed(e);
        }
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
