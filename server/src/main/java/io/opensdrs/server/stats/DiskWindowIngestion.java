package io.opensdrs.server.stats;

import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The one path every per-disk statistics window takes, whichever source read it (vCenter's
 * performance counters, an agent's {@code DiskStatsBatch}): stored as a raw batch in the caller's
 * transaction ({@link StatisticsRepository}), then, once committed, folded into the P² percentiles
 * ({@link WorkloadPercentiles}) and the newest windows the SLEDS controller steps on
 * ({@link NewestDiskWindows}). It also keeps each disk's newest stored window, so that a window
 * read twice (vCenter answers the same sample to two queries; a restart re-reads the last
 * minutes) is stored once: rebuilt from the raw batches at start-up ({@link StatisticsRecovery}).
 */
@Component
public class DiskWindowIngestion {

    private final StatisticsRepository raw;
    private final WorkloadPercentiles percentiles;
    private final NewestDiskWindows newest;
    private final TransactionTemplate tx;
    private final StatisticsWarmup warmup;
    private final Map<String, Long> newestStart = new ConcurrentHashMap<>();
    private final Map<String, Long> nextSeq = new ConcurrentHashMap<>();

    public DiskWindowIngestion(StatisticsRepository raw, WorkloadPercentiles percentiles, NewestDiskWindows newest,
                               TransactionTemplate tx, StatisticsWarmup warmup) {
        this.raw = raw;
        this.percentiles = percentiles;
        this.newest = newest;
        this.tx = tx;
        this.warmup = warmup;
    }

    /**
     * Inside the caller's transaction: the batch as the source numbered it (an agent's message seq).
     * Waits for the rebuild after a start ({@link StatisticsWarmup}), as {@link #fold} and {@link #ingest} do:
     * a batch stored while the replay reads the table could be replayed and folded both.
     */
    public void store(String source, long seq, DiskStatsBatch batch) {
        warmup.await();
        raw.insert(source, seq, batch);
    }

    /** After the commit of {@link #store}: the live percentiles and newest windows. */
    public void fold(DiskStatsBatch batch) {
        warmup.await();
        percentiles.record(batch);
        newest.record(batch);
        for (DiskWindowStats s : batch.getSamplesList()) {
            newestStart.merge(WorkloadPercentiles.diskId(s.getVm(), s.getDiskKey()), s.getWindowStartMs(), Math::max);
        }
    }

    /**
     * Stores the windows of {@code batch} that are newer than what is stored of their disk, numbered
     * by the source's next sequence number, with {@code alongside} in the same transaction (what the
     * source derives from them), and folds them after the commit. Returns what was stored.
     */
    public DiskStatsBatch ingest(String source, DiskStatsBatch batch, Consumer<DiskStatsBatch> alongside) {
        warmup.await(); // each disk's newest stored window is known only after the rebuild
        DiskStatsBatch.Builder fresh = DiskStatsBatch.newBuilder().setHost(batch.getHost());
        Map<String, Long> seen = new java.util.HashMap<>();
        for (DiskWindowStats s : batch.getSamplesList()) {
            String id = WorkloadPercentiles.diskId(s.getVm(), s.getDiskKey());
            long before = seen.getOrDefault(id, newestStart.getOrDefault(id, Long.MIN_VALUE));
            if (s.getWindowStartMs() > before) {
                fresh.addSamples(s);
                seen.put(id, s.getWindowStartMs());
            }
        }
        DiskStatsBatch stored = fresh.build();
        if (stored.getSamplesCount() == 0) {
            return stored;
        }
        tx.executeWithoutResult(status -> {
            long seq = nextSeq.compute(source, (k, last) -> (last == null ? raw.lastSeq(source) : last) + 1);
            raw.insert(source, seq, stored);
            alongside.accept(stored);
        });
        fold(stored);
        return stored;
    }

    /** The start of the newest window stored of the disk ({@code vm/diskKey}). */
    public OptionalLong newestWindowStart(String diskId) {
        Long v = newestStart.get(diskId);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    /** A batch replayed from the raw store at start-up. */
    void replayed(DiskStatsBatch batch) {
        percentiles.record(batch);
        for (DiskWindowStats s : batch.getSamplesList()) {
            newestStart.merge(WorkloadPercentiles.diskId(s.getVm(), s.getDiskKey()), s.getWindowStartMs(), Math::max);
        }
    }

    void clear() {
        percentiles.clear();
        newestStart.clear();
    }
}
