package io.opensdrs.server.stats.vcenter;

import io.opensdrs.server.SdrsProperties;
import io.opensdrs.server.models.ModelRepository;
import io.opensdrs.server.stats.DiskWindowIngestion;
import io.opensdrs.server.stats.vcenter.StatisticsFaults.Kind;
import io.opensdrs.server.stats.vcenter.StatisticsInventory.DiskRow;
import io.opensdrs.server.stats.vcenter.StatisticsInventory.Mount;
import io.opensdrs.server.vsphere.PerfCounter;
import io.opensdrs.server.vsphere.PerfQuery;
import io.opensdrs.server.vsphere.PerfSamples;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every running VM's per-disk IO, read from vCenter's PerformanceManager in its realtime interval
 * (QueryPerf, 20-s samples, CSV): the only place a vSphere publishes the IO of disks whose hosts run
 * no product code. Counters are found by name in {@code perfCounter} (their keys differ between
 * vCenters); each disk's sample becomes a window ({@link VirtualDiskCounters}) and takes the one
 * ingestion path ({@link DiskWindowIngestion}); hosts' {@code datastore} counters give the IO of
 * hosts without an agent. After each read every host's agents get their hosts' loads
 * ({@link HostLoadListener}), and each datastore's totals of a completed sample become a passive
 * observation for the models.
 *
 * <p>What vCenter really delivers is handled, never filled in: a sample not complete yet is read again
 * once; a VM that moved, stopped or left, an instance that names no disk, a value below zero or
 * missing, a counter this vCenter lacks, a host or vCenter that does not answer — each is a fault of
 * the clusters it concerns ({@link StatisticsFaults}), and nothing is stored for what it spoils. A
 * call that fails for one entity is split until that entity stands alone; a vCenter that fails every
 * call is read again after a wait doubling up to {@code sdrs.stats.vcenter.max-backoff}. Entities are
 * read {@code batch-size} to a call, each from the sample after the newest it gave.
 */
@Component
public class VCenterStatistics {

    private static final Logger log = LoggerFactory.getLogger(VCenterStatistics.class);

    /** The source name raw batches are stored under. */
    public static final String SOURCE = "vcenter";
    /** vCenter's realtime interval for hosts and VMs, seconds. */
    public static final int INTERVAL_SECONDS = 20;
    /** Samples asked for of an entity read before: vCenter keeps an hour of realtime samples. */
    static final int MAX_SAMPLES = 180;

    static final String DS_READS = "datastore.numberReadAveraged.average";
    static final String DS_WRITES = "datastore.numberWriteAveraged.average";
    static final String DS_IOPS = "datastore.datastoreIops.average";
    static final String DS_READ_LATENCY = "datastore.totalReadLatency.average";
    static final String DS_WRITE_LATENCY = "datastore.totalWriteLatency.average";
    static final String DS_NORMALIZED_LATENCY = "datastore.sizeNormalizedDatastoreLatency.average";
    /** A host's IO per datastore: what hosts without an agent put on a datastore. */
    static final List<String> HOST_COUNTERS = List.of(DS_READS, DS_WRITES, DS_IOPS, DS_READ_LATENCY, DS_WRITE_LATENCY,
            DS_NORMALIZED_LATENCY);

    /** Fault types after which vCenter as a whole is taken as unreachable, not one entity as refused. */
    private static final Set<String> UNAVAILABLE = Set.of("Transport", "Timedout", "HostCommunication",
            "NotAuthenticated", "InvalidLogin", "RequestCanceled");

    /** What the last read found, for the API. */
    public record Status(Instant readAt, long readMillis, Instant newestSample, int vmsRead, int windowsStored,
                         Duration nextReadIn, String lastFailure) {
    }

    /** One disk's newest window: its rates, where it runs, when it ended. */
    private record Latest(String hostId, String datastoreId, String datastoreName, Instant end, double iops,
                          double outstandingIos, double meanLatencyMs) {
    }

    /** One host's newest datastore counters for one datastore. */
    private record HostLatest(Instant end, double iops, double outstandingIos) {
    }

    private final ObjectProvider<VSphereClient> clients;
    private final StatisticsInventory inventory;
    private final DiskWindowIngestion ingestion;
    private final ModelRepository observations;
    private final HostLoadListener loads;
    private final StatisticsFaults faults;
    private final SdrsProperties.VCenterCounters config;
    private final Clock clock;

    private final Map<String, Integer> keyByName = new HashMap<>();
    private final Map<Integer, String> nameByKey = new HashMap<>();
    private final Set<String> missingCounters = new HashSet<>();
    private final Map<String, Instant> cursor = new HashMap<>();
    private final Map<String, Instant> held = new HashMap<>();
    private final Map<String, Latest> latestByDisk = new HashMap<>();
    private final Map<String, HostLatest> latestByMount = new HashMap<>();
    private final Map<String, Instant> firstSeen = new HashMap<>();
    /** datastore name → sample end → its disks' windows, summed once a newer sample has come. */
    private final Map<String, TreeMap<Long, List<DiskWindowStats>>> pendingObservations = new HashMap<>();
    private Instant dataClock;
    private Duration delay;
    private volatile Status status = new Status(null, 0, null, 0, 0, null, null);
    private ScheduledExecutorService loop;
    private ExecutorService calls;

    public VCenterStatistics(ObjectProvider<VSphereClient> clients, StatisticsInventory inventory,
                             DiskWindowIngestion ingestion, ModelRepository observations, HostLoadListener loads,
                             StatisticsFaults faults, SdrsProperties properties, Clock clock) {
        this.clients = clients;
        this.inventory = inventory;
        this.ingestion = ingestion;
        this.observations = observations;
        this.loads = loads;
        this.faults = faults;
        this.config = properties.getStats().getVcenter();
        this.clock = clock;
        this.delay = config.getPollInterval();
    }

    /** Starts reading once the server is ready, when it has a vCenter. */
    @EventListener(ApplicationReadyEvent.class)
    public synchronized void start() {
        if (clients.getIfAvailable() == null || loop != null) {
            return;
        }
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "vcenter-statistics");
            t.setDaemon(true);
            return t;
        });
        loop.schedule(this::readAndReschedule, 0, TimeUnit.MILLISECONDS);
        log.info("reading every disk's IO from vCenter's realtime performance counters every {}", config.getPollInterval());
    }

    @PreDestroy
    public synchronized void stop() {
        if (loop != null) {
            loop.shutdownNow();
            loop = null;
        }
        if (calls != null) {
            calls.shutdownNow();
            calls = null;
        }
    }

    public Status status() {
        return status;
    }

    private void readAndReschedule() {
        long t0 = System.nanoTime();
        try {
            read();
        } catch (RuntimeException e) {
            log.warn("reading vCenter's performance counters failed: {}", e.toString());
            delay = config.getPollInterval();
        }
        long wait = delay.toMillis();
        if (delay.equals(config.getPollInterval())) {
            // reads start every poll-interval, as vCenter's samples come, however long a read took
            wait = Math.max(0, wait - (System.nanoTime() - t0) / 1_000_000);
        }
        synchronized (this) {
            if (loop != null && !loop.isShutdown()) {
                loop.schedule(this::readAndReschedule, wait, TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * One read: the samples every running VM and host has had since the previous read, stored, passed
     * to the agents and checked. Answers the windows stored.
     */
    public synchronized int read() {
        VSphereClient client = clients.getIfAvailable();
        if (client == null) {
            return 0;
        }
        // in whole milliseconds, as the database keeps it: a fault seen by this read must compare as seen since it started
        Instant started = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        long t0 = System.nanoTime();
        StatisticsInventory.Snapshot inv = inventory.read();
        List<String> clusters = inv.clusters();
        try {
            resolveCounters(client, clusters, started);
            DiskStatsBatch.Builder windows = DiskStatsBatch.newBuilder().setHost(SOURCE);
            int vms = readVms(client, inv, windows, started);
            readHosts(client, inv, started);
            DiskStatsBatch stored = ingestion.ingest(SOURCE, windows.build(), this::observe);
            forgetGone(inv);
            remember(stored, inv);
            checkNoData(inv, started);
            publishLoads(inv);
            faults.resolveUnseen(EnumSet.of(Kind.NO_DATA, Kind.COUNTER_MISSING, Kind.BAD_VALUE, Kind.UNKNOWN_INSTANCE,
                    Kind.VCENTER_UNAVAILABLE, Kind.SLOW), started, clock.instant());
            long millis = (System.nanoTime() - t0) / 1_000_000;
            if (millis > INTERVAL_SECONDS * 1000L) {
                faults.report(clusters, Kind.SLOW, "vCenter", "reading the counters took " + millis / 1000
                        + " s, longer than their " + INTERVAL_SECONDS + "-s interval", clock.instant());
            }
            delay = config.getPollInterval();
            status = new Status(started, millis, dataClock, vms, stored.getSamplesCount(), delay, null);
            return stored.getSamplesCount();
        } catch (VimFaultException e) {
            delay = Duration.ofMillis(Math.min(config.getMaxBackoff().toMillis(), Math.max(delay.toMillis(), 1) * 2));
            faults.report(clusters, Kind.VCENTER_UNAVAILABLE, "vCenter", e.faultType() + ": " + e.getMessage()
                    + " (read again in " + delay.toSeconds() + " s)", clock.instant());
            status = new Status(started, (System.nanoTime() - t0) / 1_000_000, dataClock, 0, 0, delay,
                    e.faultType() + ": " + e.getMessage());
            log.warn("vCenter's performance counters could not be read: {} {}; next try in {}", e.faultType(),
                    e.getMessage(), delay);
            return 0;
        }
    }

    // ------------------------------------------------------------------ counters

    private void resolveCounters(VSphereClient client, List<String> clusters, Instant now) throws VimFaultException {
        if (keyByName.isEmpty()) {
            for (PerfCounter c : client.perfCounters()) {
                keyByName.put(c.name(), c.key());
                nameByKey.put(c.key(), c.name());
            }
            missingCounters.clear();
            List<String> wanted = new ArrayList<>(VirtualDiskCounters.REQUIRED);
            wanted.addAll(HOST_COUNTERS);
            for (String name : wanted) {
                if (!keyByName.containsKey(name)) {
                    missingCounters.add(name);
                }
            }
            if (!missingCounters.isEmpty()) {
                log.warn("vCenter has no performance counter {}", missingCounters);
            }
        }
        for (String name : missingCounters) {
            boolean required = VirtualDiskCounters.REQUIRED.contains(name);
            faults.report(clusters, Kind.COUNTER_MISSING, name, "vCenter's PerformanceManager has no counter " + name
                    + (required ? ": no disk's IO can be read" : ": the IO of hosts without an agent is not seen"), now);
        }
    }

    private List<Integer> keys(List<String> names) {
        List<Integer> keys = new ArrayList<>();
        for (String n : names) {
            Integer k = keyByName.get(n);
            if (k != null) {
                keys.add(k);
            }
        }
        return keys;
    }

    // ------------------------------------------------------------------ VMs

    private int readVms(VSphereClient client, StatisticsInventory.Snapshot inv, DiskStatsBatch.Builder windows,
                        Instant now) throws VimFaultException {
        if (VirtualDiskCounters.REQUIRED.stream().anyMatch(missingCounters::contains)) {
            return 0;
        }
        List<String> names = new ArrayList<>(VirtualDiskCounters.REQUIRED);
        names.addAll(VirtualDiskCounters.OPTIONAL);
        List<Integer> counterKeys = keys(names);
        List<PerfQuery> queries = new ArrayList<>();
        for (Map.Entry<String, List<DiskRow>> e : inv.disksByVm().entrySet()) {
            if (e.getValue().get(0).poweredOn()) {
                queries.add(query("VirtualMachine", e.getKey(), counterKeys));
            }
        }
        for (PerfSamples answer : queryAll(client, queries, id -> clustersOfVm(inv, id), now)) {
            mapVm(answer, inv.disksByVm().get(answer.entityId()), windows, now);
        }
        return queries.size();
    }

    private PerfQuery query(String type, String id, List<Integer> counterKeys) {
        Instant after = cursor.get(id);
        return new PerfQuery(type, id, counterKeys, after, after == null ? config.getFirstSamples() : MAX_SAMPLES);
    }

    private void mapVm(PerfSamples answer, List<DiskRow> disks, DiskStatsBatch.Builder windows, Instant now) {
        if (disks == null) {
            return; // answered for an entity not asked about
        }
        DiskRow first = disks.get(0);
        List<String> vmClusters = disks.stream().map(DiskRow::clusterId).distinct().toList();
        Map<String, DiskRow> byInstance = new HashMap<>();
        for (DiskRow d : disks) {
            if (d.perfInstance() != null) {
                byInstance.put(d.perfInstance(), d);
            }
        }
        Map<String, Map<String, long[]>> series = new LinkedHashMap<>();
        Set<String> spoiled = new HashSet<>();
        for (PerfSamples.Series s : answer.series()) {
            String name = nameByKey.get(s.counterKey());
            if (name == null || !name.startsWith("virtualDisk.")) {
                continue;
            }
            if (!byInstance.containsKey(s.instance())) {
                faults.report(vmClusters, Kind.UNKNOWN_INSTANCE, "instance " + s.instance() + " of VM " + first.vmName(),
                        "vCenter reports " + name + " for instance '" + s.instance() + "', which names none of the VM's disks ("
                                + String.join(", ", new java.util.TreeSet<>(byInstance.keySet())) + "): not stored", now);
                continue;
            }
            if (s.problem() != null) {
                spoiled.add(s.instance());
                DiskRow d = byInstance.get(s.instance());
                faults.report(List.of(d.clusterId()), Kind.BAD_VALUE, describe(d),
                        name + " of instance " + s.instance() + ": " + s.problem() + "; nothing stored for the disk", now);
                continue;
            }
            series.computeIfAbsent(s.instance(), k -> new HashMap<>()).put(name, s.values());
        }
        List<Instant> ts = answer.timestamps();
        Instant consumed = cursor.get(answer.entityId());
        Instant newest = consumed;
        for (int i = 0; i < ts.size(); i++) {
            Instant t = ts.get(i);
            if (consumed != null && !t.isAfter(consumed)) {
                continue;
            }
            boolean last = i == ts.size() - 1;
            boolean holdThis = false;
            List<DiskWindowStats> ready = new ArrayList<>();
            for (Map.Entry<String, Map<String, long[]>> e : series.entrySet()) {
                if (spoiled.contains(e.getKey())) {
                    continue;
                }
                DiskRow d = byInstance.get(e.getKey());
                Map<String, Long> values = new HashMap<>();
                for (Map.Entry<String, long[]> c : e.getValue().entrySet()) {
                    values.put(c.getKey(), c.getValue()[i]);
                }
                VirtualDiskCounters.Mapped m = VirtualDiskCounters.window(
                        new VirtualDiskCounters.Disk(d.vmId(), d.diskKey(), d.fileName(), d.datastoreName()), t,
                        INTERVAL_SECONDS, values);
                if (m.window() != null) {
                    ready.add(m.window());
                } else if (last && !t.equals(held.get(answer.entityId())) && m.problem().startsWith("no value")) {
                    holdThis = true; // vCenter may not have finished the newest sample: read it again once
                } else {
                    faults.report(List.of(d.clusterId()), Kind.BAD_VALUE, describe(d),
                            "the sample ending " + t + ": " + m.problem() + "; nothing stored for the disk", now);
                }
            }
            if (holdThis) {
                held.put(answer.entityId(), t);
                break;
            }
            ready.forEach(windows::addSamples);
            newest = t;
        }
        if (newest != null) {
            cursor.put(answer.entityId(), newest);
        }
    }

    private static String describe(DiskRow d) {
        return "disk " + d.diskKey() + " of VM " + d.vmName();
    }

    private static List<String> clustersOfVm(StatisticsInventory.Snapshot inv, String vmId) {
        List<DiskRow> disks = inv.disksByVm().get(vmId);
        return disks == null ? List.of() : disks.stream().map(DiskRow::clusterId).distinct().toList();
    }

    // ------------------------------------------------------------------ hosts

    private void readHosts(VSphereClient client, StatisticsInventory.Snapshot inv, Instant now) throws VimFaultException {
        List<Integer> counterKeys = keys(HOST_COUNTERS);
        if (!keyByName.containsKey(DS_IOPS) || !keyByName.containsKey(DS_READ_LATENCY)) {
            return;
        }
        List<PerfQuery> queries = new ArrayList<>();
        for (String host : inv.mountsByHost().keySet()) {
            queries.add(query("HostSystem", host, counterKeys));
        }
        for (PerfSamples answer : queryAll(client, queries, id -> clustersOfHost(inv, id), now)) {
            List<Mount> mounts = inv.mountsByHost().get(answer.entityId());
            if (mounts == null || answer.timestamps().isEmpty()) {
                continue;
            }
            int last = answer.timestamps().size() - 1;
            Instant end = answer.timestamps().get(last);
            Map<String, Map<String, Long>> byInstance = new HashMap<>();
            for (PerfSamples.Series s : answer.series()) {
                String name = nameByKey.get(s.counterKey());
                if (name != null && s.problem() == null && s.values().length > last) {
                    byInstance.computeIfAbsent(s.instance(), k -> new HashMap<>()).put(name, s.values()[last]);
                }
            }
            for (Mount m : mounts) {
                Map<String, Long> v = byInstance.get(m.perfInstance());
                if (v == null || v.getOrDefault(DS_IOPS, -1L) < 0 || v.getOrDefault(DS_READ_LATENCY, -1L) < 0) {
                    continue;
                }
                double iops = v.get(DS_IOPS);
                long reads = v.getOrDefault(DS_READS, -1L);
                long writes = v.getOrDefault(DS_WRITES, -1L);
                double readMs = v.get(DS_READ_LATENCY);
                double writeMs = Math.max(0, v.getOrDefault(DS_WRITE_LATENCY, (long) readMs));
                double latency = reads >= 0 && writes >= 0 && reads + writes > 0
                        ? (reads * readMs + writes * writeMs) / (reads + writes) : (readMs + writeMs) / 2;
                latestByMount.put(m.hostId() + "/" + m.datastoreId(), new HostLatest(end, iops, iops * latency / 1000));
            }
            cursor.put(answer.entityId(), end);
        }
    }

    private static List<String> clustersOfHost(StatisticsInventory.Snapshot inv, String hostId) {
        List<Mount> mounts = inv.mountsByHost().get(hostId);
        return mounts == null ? List.of() : mounts.stream().map(Mount::clusterId).distinct().toList();
    }

    // ------------------------------------------------------------------ calls

    /**
     * The queries in calls of {@code batch-size}, up to {@code parallel-calls} of them in flight: while one
     * answer is read, vCenter works on the next (a period's read of 9,000 disks is 13 calls; one after
     * another, each waited for vCenter's answer, then for our reading of it). Answers are taken in the
     * calls' order, so a read stores the same as with one call at a time. A call vCenter refuses for
     * something other than being unreachable is split in halves until the entity it refuses stands alone,
     * which is then a fault; vCenter unreachable ends the read (calls still in flight are abandoned).
     */
    private List<PerfSamples> queryAll(VSphereClient client, List<PerfQuery> queries,
                                       java.util.function.Function<String, List<String>> clustersOf, Instant now)
            throws VimFaultException {
        List<List<PerfQuery>> batches = new ArrayList<>();
        for (int i = 0; i < queries.size(); i += config.getBatchSize()) {
            batches.add(queries.subList(i, Math.min(queries.size(), i + config.getBatchSize())));
        }
        List<PerfSamples> all = new ArrayList<>();
        ExecutorService pool = calls();
        if (pool == null || batches.size() < 2) {
            for (List<PerfQuery> batch : batches) {
                query(client, batch, all, clustersOf, now);
            }
            return all;
        }
        List<Future<List<PerfSamples>>> inFlight = new ArrayList<>();
        for (List<PerfQuery> batch : batches) {
            inFlight.add(pool.submit(() -> client.queryPerf(batch)));
        }
        try {
            for (int i = 0; i < batches.size(); i++) {
                try {
                    all.addAll(inFlight.get(i).get());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof VimFaultException fault)) {
                        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                    }
                    refused(client, batches.get(i), fault, all, clustersOf, now);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading vCenter's counters", e);
        } finally {
            inFlight.forEach(f -> f.cancel(true));
        }
        return all;
    }

    /** The threads that call QueryPerf; null with {@code parallel-calls} 1 (the read's own thread calls). */
    private synchronized ExecutorService calls() {
        if (config.getParallelCalls() <= 1) {
            return null;
        }
        if (calls == null) {
            AtomicInteger n = new AtomicInteger();
            calls = Executors.newFixedThreadPool(config.getParallelCalls(), r -> {
                Thread t = new Thread(r, "vcenter-statistics-call-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        return calls;
    }

    private void query(VSphereClient client, List<PerfQuery> batch, List<PerfSamples> into,
                       java.util.function.Function<String, List<String>> clustersOf, Instant now) throws VimFaultException {
        try {
            into.addAll(client.queryPerf(batch));
        } catch (VimFaultException e) {
            refused(client, batch, e, into, clustersOf, now);
        }
    }

    /** vCenter refused the call: unreachable ends the read, else halves are asked until the entity stands alone. */
    private void refused(VSphereClient client, List<PerfQuery> batch, VimFaultException e, List<PerfSamples> into,
                         java.util.function.Function<String, List<String>> clustersOf, Instant now) throws VimFaultException {
        if (UNAVAILABLE.contains(e.faultType())) {
            throw e;
        }
        if (batch.size() > 1) {
            int half = batch.size() / 2;
            query(client, batch.subList(0, half), into, clustersOf, now);
            query(client, batch.subList(half, batch.size()), into, clustersOf, now);
        } else if (!"ManagedObjectNotFound".equals(e.faultType())) { // gone since the inventory was read
            PerfQuery q = batch.get(0);
            faults.report(clustersOf.apply(q.entityId()), Kind.VCENTER_UNAVAILABLE, q.entityType() + " " + q.entityId(),
                    "QueryPerf refused it: " + e.faultType() + ": " + e.getMessage(), now);
        }
    }

    // ------------------------------------------------------------------ after the read

    /** In the windows' transaction: each datastore's totals of the samples a newer one has completed. */
    private void observe(DiskStatsBatch stored) {
        long newest = Long.MIN_VALUE;
        for (DiskWindowStats w : stored.getSamplesList()) {
            pendingObservations.computeIfAbsent(w.getDatastore(), k -> new TreeMap<>())
                    .computeIfAbsent(w.getWindowStartMs(), k -> new ArrayList<>()).add(w);
            newest = Math.max(newest, w.getWindowStartMs());
        }
        for (Map.Entry<String, TreeMap<Long, List<DiskWindowStats>>> e : pendingObservations.entrySet()) {
            while (!e.getValue().isEmpty() && e.getValue().firstKey() < newest) {
                Map.Entry<Long, List<DiskWindowStats>> sample = e.getValue().pollFirstEntry();
                insertObservation(e.getKey(), sample.getKey(), sample.getValue());
            }
        }
    }

    /** Pesto §5.1.1's datastore-wide totals, over the datastore's disks in one sample. */
    private void insertObservation(String datastore, long startMs, List<DiskWindowStats> windows) {
        long ios = 0;
        double oio = 0;
        double latency = 0;
        double size = 0;
        double reads = 0;
        double random = 0;
        for (DiskWindowStats w : windows) {
            ios += w.getIoCount();
            oio += w.getMeanOutstandingIos();
            latency += w.getMeanLatencyMs() * w.getIoCount();
            size += w.getMeanIoSizeKb() * w.getIoCount();
            reads += w.getReadShare() * w.getIoCount();
            random += w.getRandomness() * w.getIoCount();
        }
        if (ios == 0) {
            return; // an idle datastore says nothing about its latency
        }
        observations.insertObservation(datastore, SOURCE, startMs + INTERVAL_SECONDS * 1000L, ios, oio, latency / ios,
                Math.max(0.5, size / ios), reads / ios, random / ios);
    }

    private void remember(DiskStatsBatch stored, StatisticsInventory.Snapshot inv) {
        Map<String, DiskRow> rows = new HashMap<>();
        inv.disksByVm().values().forEach(list -> list.forEach(d -> rows.put(d.diskId(), d)));
        for (DiskWindowStats w : stored.getSamplesList()) {
            Instant end = Instant.ofEpochMilli(w.getWindowStartMs() + w.getWindowSeconds() * 1000L);
            if (dataClock == null || end.isAfter(dataClock)) {
                dataClock = end;
            }
            DiskRow d = rows.get(w.getVm() + "/" + w.getDiskKey());
            if (d != null) {
                latestByDisk.merge(d.diskId(), new Latest(d.hostId(), d.datastoreId(), d.datastoreName(), end,
                        w.getIoCount() / (double) w.getWindowSeconds(), w.getMeanOutstandingIos(), w.getMeanLatencyMs()),
                        (old, fresh) -> fresh.end().isAfter(old.end()) ? fresh : old);
            }
        }
        for (HostLatest h : latestByMount.values()) {
            if (dataClock == null || h.end().isAfter(dataClock)) {
                dataClock = h.end();
            }
        }
    }

    /** What the reader keeps of VMs, disks and hosts that have left the inventory. */
    private void forgetGone(StatisticsInventory.Snapshot inv) {
        Set<String> disks = new HashSet<>();
        inv.disksByVm().values().forEach(list -> list.forEach(d -> disks.add(d.diskId())));
        Set<String> entities = new HashSet<>(inv.disksByVm().keySet());
        entities.addAll(inv.mountsByHost().keySet());
        cursor.keySet().retainAll(entities);
        held.keySet().retainAll(entities);
        latestByDisk.keySet().retainAll(disks);
        firstSeen.keySet().retainAll(disks);
        latestByMount.keySet().removeIf(k -> !entities.contains(k.substring(0, k.indexOf('/'))));
    }

    /** A running VM's disk whose newest sample is several intervals behind the others' is a fault. */
    private void checkNoData(StatisticsInventory.Snapshot inv, Instant now) {
        if (dataClock == null) {
            return;
        }
        Duration allowed = Duration.ofSeconds((long) INTERVAL_SECONDS * config.getNoDataIntervals());
        for (List<DiskRow> disks : inv.disksByVm().values()) {
            for (DiskRow d : disks) {
                if (!d.poweredOn()) {
                    continue;
                }
                Instant since = firstSeen.computeIfAbsent(d.diskId(), k -> dataClock);
                java.util.OptionalLong start = ingestion.newestWindowStart(d.diskId());
                Instant newest = start.isPresent() ? Instant.ofEpochMilli(start.getAsLong() + INTERVAL_SECONDS * 1000L) : null;
                Instant reference = newest != null && newest.isAfter(since) ? newest : since;
                if (Duration.between(reference, dataClock).compareTo(allowed) > 0) {
                    faults.report(List.of(d.clusterId()), Kind.NO_DATA, describe(d),
                            (d.perfInstance() == null ? "no counter instance is known for the disk (its controller is not one"
                                    + " vCenter names counters by); " : "")
                                    + "no realtime sample " + (newest == null ? "yet" : "since " + newest)
                                    + " while other disks have samples up to " + dataClock, now);
                }
            }
        }
    }

    private void publishLoads(StatisticsInventory.Snapshot inv) {
        if (dataClock == null) {
            return;
        }
        Instant fresh = dataClock.minusSeconds(2L * INTERVAL_SECONDS);
        Map<String, double[]> byMount = new HashMap<>(); // host/datastore → iops, oio, latency·iops
        for (Latest l : latestByDisk.values()) {
            if (l.end().isBefore(fresh) || l.hostId() == null) {
                continue;
            }
            double[] a = byMount.computeIfAbsent(l.hostId() + "/" + l.datastoreId(), k -> new double[3]);
            a[0] += l.iops();
            a[1] += l.outstandingIos();
            a[2] += l.meanLatencyMs() * l.iops();
        }
        Map<String, List<HostLoadListener.Load>> toSend = new LinkedHashMap<>();
        for (Map.Entry<String, List<Mount>> e : inv.mountsByHost().entrySet()) {
            String hostName = e.getValue().get(0).hostName();
            List<HostLoadListener.Load> list = new ArrayList<>();
            for (Mount m : e.getValue()) {
                if (!inv.agentHostsByDatastore().getOrDefault(m.datastoreName(), Set.of()).contains(hostName)) {
                    continue; // no agent of this host sees the datastore
                }
                double[] own = byMount.getOrDefault(m.hostId() + "/" + m.datastoreId(), new double[3]);
                double otherIops = 0;
                double otherOio = 0;
                for (Map.Entry<String, List<Mount>> other : inv.mountsByHost().entrySet()) {
                    String otherName = other.getValue().get(0).hostName();
                    boolean mounts = other.getValue().stream().anyMatch(o -> o.datastoreId().equals(m.datastoreId()));
                    if (!mounts || inv.agentHostsByDatastore().getOrDefault(m.datastoreName(), Set.of()).contains(otherName)) {
                        continue;
                    }
                    String key = other.getKey() + "/" + m.datastoreId();
                    HostLatest h = latestByMount.get(key);
                    if (h != null && !h.end().isBefore(fresh)) {
                        otherIops += h.iops();
                        otherOio += h.outstandingIos();
                    } else if (byMount.containsKey(key)) { // no datastore counters: its VMs' disks
                        otherIops += byMount.get(key)[0];
                        otherOio += byMount.get(key)[1];
                    }
                }
                list.add(new HostLoadListener.Load(m.datastoreName(), own[0], own[1], own[0] > 0 ? own[2] / own[0] : 0,
                        otherIops, otherOio));
            }
            if (!list.isEmpty()) {
                toSend.put(hostName, list);
            }
        }
        loads.publish(toSend, dataClock.toEpochMilli(), INTERVAL_SECONDS);
    }
}
