package io.opensdrs.loop;

import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.testbed.vscsi.PacedWorld;
import io.opensdrs.testbed.world.VirtualDisk;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Per-datastore latency as the testbed measured it (every IO of every VM disk, not the models'
 * predictions): over a number of 20-s windows, each datastore's p50 and p90 are the IO-weighted
 * means of its disks' window percentiles; the disk count is the placement when the span ends.
 */
public final class MeasuredLatency {

    /** One datastore over the span. */
    public record DatastoreLatency(String datastore, int disks, long ios, double p50Ms, double p90Ms) {
    }

    private MeasuredLatency() {
    }

    /** Records {@code windows} whole windows from now on (waiting for them), then the placement. */
    public static Map<String, DatastoreLatency> record(PacedWorld world, int windows, Consumer<String> progress)
            throws InterruptedException {
        Map<String, double[]> sums = new LinkedHashMap<>(); // ios, Σ p50·ios, Σ p90·ios
        CountDownLatch done = new CountDownLatch(windows);
        // Windows arrive once per host's disks; count a window once per distinct start time.
        List<Double> seenStarts = new ArrayList<>();
        Consumer<PacedWorld.WindowReport> listener = report -> {
            synchronized (sums) {
                if (done.getCount() == 0) {
                    return;
                }
                for (DiskWindow w : report.disks()) {
                    double[] s = sums.computeIfAbsent(w.datastore(), k -> new double[3]);
                    s[0] += w.ios();
                    s[1] += w.p50Ms() * w.ios();
                    s[2] += w.p90Ms() * w.ios();
                }
                if (!seenStarts.contains(report.startMs())) {
                    seenStarts.add(report.startMs());
                    done.countDown();
                }
            }
        };
        world.addWindowListener(listener);
        try {
            long started = System.nanoTime();
            while (!done.await(15, TimeUnit.SECONDS)) {
                if (world.failure() != null) {
                    throw new IllegalStateException("the testbed stopped: " + world.failure(), world.failure());
                }
                progress.accept(String.format("  ... measuring: %d of %d windows (%d s)", windows - done.getCount(),
                        windows, (System.nanoTime() - started) / 1_000_000_000));
            }
        } finally {
            world.removeWindowListener(listener);
        }
        Map<String, Integer> placement = world.call(() -> {
            Map<String, Integer> n = new LinkedHashMap<>();
            world.world().scenario().datastores().forEach(d -> n.put(d.name(), 0));
            for (VirtualDisk d : world.world().disks()) {
                n.merge(d.datastore(), 1, Integer::sum);
            }
            return n;
        });
        Map<String, DatastoreLatency> out = new LinkedHashMap<>();
        synchronized (sums) {
            for (Map.Entry<String, Integer> e : placement.entrySet()) {
                double[] s = sums.getOrDefault(e.getKey(), new double[3]);
                out.put(e.getKey(), new DatastoreLatency(e.getKey(), e.getValue(), (long) s[0],
                        s[0] > 0 ? s[1] / s[0] : Double.NaN, s[0] > 0 ? s[2] / s[0] : Double.NaN));
            }
        }
        return out;
    }

    /** The highest p90 among datastores that had IO, or NaN. */
    public static double worstP90(Map<String, DatastoreLatency> m) {
        return m.values().stream().filter(d -> d.ios() > 0).mapToDouble(DatastoreLatency::p90Ms).max().orElse(Double.NaN);
    }
}
