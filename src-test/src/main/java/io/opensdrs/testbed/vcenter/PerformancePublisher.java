package io.opensdrs.testbed.vcenter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.testbed.vscsi.PacedWorld;
import io.opensdrs.testbed.world.VirtualDisk;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The testbed's IO as vCenter publishes it: each closed 20-s window of the paced world becomes one
 * realtime sample of our vcsim's PerformanceManager ({@code POST /opensdrs/perf}, src-test/vcsim
 * README), which the server then reads with QueryPerf as it would from a real vCenter. Per VM disk
 * the {@code virtualDisk} counters ESXi derives from its vSCSI layer; per host and datastore the
 * {@code datastore} counters of the IO that host issues to it, a storage vMotion's copy included
 * (the copy runs on the VM's host). Values are whole numbers, as vCenter's are.
 *
 * <p>A disk is named as vCenter names it, by VM name and device key ({@link #diskKeys}, read from
 * vCenter at start). Posts leave the engine thread on one sender thread, in order; a window that
 * cannot be delivered (vcsim gone) is counted and dropped, as a host that cannot reach vCenter
 * loses its samples.
 */
public final class PerformancePublisher implements Consumer<PacedWorld.WindowReport>, AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final int INTERVAL_SECONDS = 20;

    private final PacedWorld paced;
    private final VcsimAdmin vcsim;
    private final Map<String, Integer> diskKeys;
    private final ExecutorService sender;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile String lastFailure;

    /**
     * @param vcsimUrl the simulator's URL (its admin endpoint is on the same listener)
     * @param diskKeys the scenario's disk ("vm/disk") → vCenter's device key of that disk
     */
    public PerformancePublisher(PacedWorld paced, String vcsimUrl, Map<String, Integer> diskKeys) {
        this.paced = paced;
        this.vcsim = new VcsimAdmin(vcsimUrl);
        this.diskKeys = Map.copyOf(diskKeys);
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(64), r -> {
            Thread t = new Thread(r, "vcsim-perf-publisher");
            t.setDaemon(true);
            return t;
        }, (r, executor) -> failed.incrementAndGet());
    }

    /** Starts publishing every window the world closes from now on. */
    public PerformancePublisher start() {
        paced.addWindowListener(this);
        return this;
    }

    public long published() {
        return published.get();
    }

    public long failed() {
        return failed.get();
    }

    public String lastFailure() {
        return lastFailure;
    }

    /** On the engine thread: the window's sample, posted on the sender thread. */
    @Override
    public void accept(PacedWorld.WindowReport report) {
        String body = sample(report);
        sender.execute(() -> post(body));
    }

    String sample(PacedWorld.WindowReport report) {
        double endMs = report.startMs() + INTERVAL_SECONDS * 1000.0;
        ObjectNode root = JSON.createObjectNode();
        root.put("timestamp", Instant.ofEpochMilli(paced.epochBaseMs() + Math.round(endMs)).toString());
        root.put("interval", INTERVAL_SECONDS);
        Map<String, ArrayNode> disksOfVm = new LinkedHashMap<>();
        Map<String, Map<String, Totals>> hostDatastores = new LinkedHashMap<>();
        ArrayNode vms = root.putArray("vms");
        for (DiskWindow w : report.disks()) {
            boolean copy = w.disk().startsWith("copy-");
            String diskId = copy ? w.disk().substring(w.disk().indexOf(':') + 1) : w.disk();
            VirtualDisk d = paced.world().disk(diskId);
            hostDatastores.computeIfAbsent(d.host(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(w.datastore(), k -> new Totals()).add(w);
            Integer key = diskKeys.get(diskId);
            if (copy || key == null) {
                continue; // a copy is no virtual disk; a disk vCenter does not have publishes nothing
            }
            ArrayNode disks = disksOfVm.computeIfAbsent(d.vm(), vm -> {
                ObjectNode v = vms.addObject();
                v.put("vm", vm);
                return v.putArray("disks");
            });
            ObjectNode disk = disks.addObject();
            disk.put("key", key);
            counters(disk.putObject("counters"), w);
        }
        ArrayNode hosts = root.putArray("hosts");
        for (Map.Entry<String, Map<String, Totals>> h : hostDatastores.entrySet()) {
            ObjectNode host = hosts.addObject();
            host.put("host", h.getKey());
            ArrayNode dss = host.putArray("datastores");
            for (Map.Entry<String, Totals> ds : h.getValue().entrySet()) {
                ObjectNode o = dss.addObject();
                o.put("datastore", ds.getKey());
                ds.getValue().counters(o.putObject("counters"), report.disks().isEmpty() ? INTERVAL_SECONDS
                        : report.disks().get(0).seconds());
            }
        }
        return root.toString();
    }

    private static void counters(ObjectNode c, DiskWindow w) {
        double s = Math.max(1e-9, w.seconds());
        c.put("virtualDisk.numberReadAveraged.average", Math.round(w.reads() / s));
        c.put("virtualDisk.numberWriteAveraged.average", Math.round(w.writes() / s));
        c.put("virtualDisk.totalReadLatency.average", Math.round(w.readLatencyMs()));
        c.put("virtualDisk.totalWriteLatency.average", Math.round(w.writeLatencyMs()));
        c.put("virtualDisk.readLatencyUS.latest", Math.round(w.readLatencyMs() * 1000));
        c.put("virtualDisk.writeLatencyUS.latest", Math.round(w.writeLatencyMs() * 1000));
        c.put("virtualDisk.readOIO.latest", Math.round(w.readOutstanding()));
        c.put("virtualDisk.writeOIO.latest", Math.round(w.writeOutstanding()));
        c.put("virtualDisk.read.average", Math.round(w.bytesRead() / 1024.0 / s));
        c.put("virtualDisk.write.average", Math.round(w.bytesWritten() / 1024.0 / s));
        c.put("virtualDisk.readIOSize.latest", w.reads() == 0 ? 0 : Math.round((double) w.bytesRead() / w.reads()));
        c.put("virtualDisk.writeIOSize.latest", w.writes() == 0 ? 0 : Math.round((double) w.bytesWritten() / w.writes()));
        c.put("virtualDisk.smallSeeks.latest", w.smallSeeks());
        c.put("virtualDisk.mediumSeeks.latest", w.mediumSeeks());
        c.put("virtualDisk.largeSeeks.latest", w.largeSeeks());
    }

    /** One host's IO to one datastore in a window. */
    private static final class Totals {
        long reads;
        long writes;
        double readLatencySum;
        double writeLatencySum;

        void add(DiskWindow w) {
            reads += w.reads();
            writes += w.writes();
            readLatencySum += w.readLatencyMs() * w.reads();
            writeLatencySum += w.writeLatencyMs() * w.writes();
        }

        void counters(ObjectNode c, double seconds) {
            double s = Math.max(1e-9, seconds);
            c.put("datastore.numberReadAveraged.average", Math.round(reads / s));
            c.put("datastore.numberWriteAveraged.average", Math.round(writes / s));
            c.put("datastore.datastoreIops.average", Math.round((reads + writes) / s));
            c.put("datastore.totalReadLatency.average", reads == 0 ? 0 : Math.round(readLatencySum / reads));
            c.put("datastore.totalWriteLatency.average", writes == 0 ? 0 : Math.round(writeLatencySum / writes));
        }
    }

    private void post(String body) {
        try {
            HttpResponse<String> r = vcsim.post("/opensdrs/perf", "application/json", body);
            if (r.statusCode() / 100 == 2) {
                published.incrementAndGet();
            } else {
                failed.incrementAndGet();
                lastFailure = "HTTP " + r.statusCode() + ": " + r.body();
            }
        } catch (java.io.IOException e) {
            failed.incrementAndGet();
            lastFailure = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        paced.removeWindowListener(this);
        sender.shutdown();
        try {
            sender.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
