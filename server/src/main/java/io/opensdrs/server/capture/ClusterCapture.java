package io.opensdrs.server.capture;

import io.opensdrs.model.Workload;
import io.opensdrs.server.inventory.InventoryRepository;
import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.models.FitPoint;
import io.opensdrs.server.models.ModelRecord;
import io.opensdrs.server.models.ModelRepository;
import io.opensdrs.server.stats.StatisticsRepository;
import io.opensdrs.server.stats.vcenter.VCenterStatistics;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the server has observed of one datastore cluster, for {@code sdrs capture} to replay in the
 * testbed: its datastores with the model in use and what was measured on them, the hosts and what
 * each mounts of the cluster, the VMs with their disks, and each disk's workload per UTC hour of the
 * day, from the raw windows read from vCenter (source {@code vcenter}) within their retention.
 *
 * <p>The raw store is read once, streamed batch by batch into a {@link CaptureAggregation}, inside a
 * read-only transaction.
 */
@Component
public class ClusterCapture {

    /** The injector's outstanding-IO levels (Pesto §5.1): the range a model is fitted over. */
    public static final List<Integer> PREDICTION_OIOS = List.of(2, 4, 8, 16, 32);
    /** The injector's IO sizes, KiB. */
    public static final List<Integer> PREDICTION_SIZES_KB = List.of(4, 256);

    private final InventoryRepository inventory;
    private final DatastoreModels models;
    private final ModelRepository modelStore;
    private final StatisticsRepository raw;
    private final TransactionTemplate readOnly;

    public ClusterCapture(InventoryRepository inventory, DatastoreModels models, ModelRepository modelStore, StatisticsRepository raw,
                          TransactionTemplate tx) {
        this.inventory = inventory;
        this.models = models;
        this.modelStore = modelStore;
        this.raw = raw;
        this.readOnly = new TransactionTemplate(tx.getTransactionManager());
        this.readOnly.setReadOnly(true);
    }

    /**
     * @param configuredKind the cluster's model-kind setting; each datastore's model is the kind it
     *     uses under it ({@link DatastoreModels#selectKind(String, String)})
     * @param rules the cluster's Storage DRS rules, as the rules endpoint lists them
     */
    public CaptureViews.Capture capture(String clusterId, String clusterName, String configuredKind, List<CaptureViews.Rule> rules) {
        return capture(clusterId, clusterName, configuredKind, rules, null);
    }

    /**
     * @param last only the windows starting within this span before the newest stored window (null: every
     *     retained window)
     */
    public CaptureViews.Capture capture(String clusterId, String clusterName, String configuredKind, List<CaptureViews.Rule> rules,
                                        java.time.Duration last) {
        List<InventoryRepository.DatastoreRow> dss = inventory.datastoresIn(clusterId);
        Map<String, String> hostNames = new TreeMap<>();
        Map<String, List<String>> hostDatastores = new LinkedHashMap<>();
        for (InventoryRepository.MountRow m : inventory.mountsIn(clusterId)) {
            hostNames.put(m.hostMoid(), m.hostName());
            hostDatastores.computeIfAbsent(m.hostMoid(), k -> new ArrayList<>()).add(m.datastoreName());
        }
        List<InventoryRepository.VmDiskRow> disks = inventory.disksIn(clusterId);

        Set<String> dsNames = new HashSet<>();
        dss.forEach(d -> dsNames.add(d.name()));
        Set<String> diskIds = new HashSet<>();
        disks.forEach(d -> diskIds.add(CaptureAggregation.diskId(d.vmMoid(), d.key())));
        long from = Long.MIN_VALUE;
        if (last != null) {
            Long newest = raw.newestWindowStart(VCenterStatistics.SOURCE);
            from = newest == null ? Long.MIN_VALUE : newest - last.toMillis();
        }
        CaptureAggregation agg = new CaptureAggregation(dsNames, diskIds, from);
        long cutoff = from;
        readOnly.executeWithoutResult(status -> raw.forEachOf(VCenterStatistics.SOURCE, cutoff, agg::add));

        List<String> notes = new ArrayList<>();
        List<CaptureViews.Datastore> dsViews = new ArrayList<>();
        for (InventoryRepository.DatastoreRow d : dss) {
            ModelRecord m = models.effective(d.name(), models.selectKind(configuredKind, d.name()));
            List<CaptureViews.Prediction> predictions = new ArrayList<>();
            for (int z : PREDICTION_SIZES_KB) {
                for (int q : PREDICTION_OIOS) {
                    predictions.add(new CaptureViews.Prediction(q, z, 100, 100, models.predict(m, new Workload(q, z, 1, 1))));
                }
            }
            List<CaptureViews.Prediction> injected = injectorPoints(d.name());
            Long since = agg.currentSinceMs(d.name());
            CaptureViews.Measured all = agg.measured(d.name(), null);
            CaptureViews.Measured current = since == null ? all : agg.measured(d.name(), since);
            if (all.ios() == 0) {
                notes.add("datastore " + d.name() + ": no IO measured in the retained windows");
            }
            dsViews.add(new CaptureViews.Datastore(d.name(), d.moid(), d.capacity(), d.free(), null, d.accessible(), d.maintenance(),
                    new CaptureViews.Model(m.kind(), m.source(), m.parameters(), m.rSquared(),
                            m.fittedAt() == null ? null : m.fittedAt().toString(), predictions, injected),
                    all, current, since == null ? null : Instant.ofEpochMilli(since).toString()));
        }

        List<CaptureViews.Host> hosts = new ArrayList<>();
        hostNames.forEach((moid, name) -> hosts.add(new CaptureViews.Host(moid, name, hostDatastores.get(moid))));
        hosts.sort(java.util.Comparator.comparing(CaptureViews.Host::name));

        Map<String, List<CaptureViews.Disk>> vmDisks = new LinkedHashMap<>();
        Map<String, InventoryRepository.VmDiskRow> vmRows = new LinkedHashMap<>();
        int withoutWindows = 0;
        for (InventoryRepository.VmDiskRow r : disks) {
            String id = CaptureAggregation.diskId(r.vmMoid(), r.key());
            CaptureAggregation.DiskHour[] hours = agg.hours(id);
            List<CaptureViews.Workload> perHour = new ArrayList<>();
            if (hours != null) {
                for (int h = 0; h < 24; h++) {
                    if (hours[h] != null) {
                        perHour.add(hours[h].view(h));
                    }
                }
            } else {
                withoutWindows++;
            }
            vmRows.putIfAbsent(r.vmMoid(), r);
            vmDisks.computeIfAbsent(r.vmMoid(), k -> new ArrayList<>()).add(new CaptureViews.Disk(r.key(), fileBase(r.file()), r.file(),
                    r.size(), r.datastore(), agg.total(id).view(null), perHour));
        }
        if (withoutWindows > 0) {
            notes.add(withoutWindows + " of " + disks.size() + " disks have no stored window (powered off, new, or older than the retention)");
        }
        List<CaptureViews.Vm> vms = new ArrayList<>();
        vmRows.forEach((moid, r) -> vms.add(new CaptureViews.Vm(moid, r.vmName(), r.hostName(), null, r.poweredOn(), vmDisks.get(moid))));

        return new CaptureViews.Capture(clusterId, clusterName, Instant.now().toString(), VCenterStatistics.SOURCE,
                VCenterStatistics.INTERVAL_SECONDS, models.clusterKind(configuredKind, dss.stream().map(InventoryRepository.DatastoreRow::name).toList()),
                agg.windowsRead(), agg.windowsUsed(),
                agg.firstWindowStartMs() == null ? null : Instant.ofEpochMilli(agg.firstWindowStartMs()).toString(),
                agg.lastWindowStartMs() == null ? null : Instant.ofEpochMilli(agg.lastWindowStartMs()).toString(),
                dsViews, hosts, vms, rules, notes);
    }

    /** The points of the newest valid random-read injector run of each IO size on the datastore. */
    List<CaptureViews.Prediction> injectorPoints(String datastore) {
        List<CaptureViews.Prediction> out = new ArrayList<>();
        for (FitPoint p : modelStore.newestInjectorPointsPerSize(datastore)) {
            out.add(new CaptureViews.Prediction(p.outstandingIos(), p.ioSizeKb(), 100, 100, p.latencyMs()));
        }
        out.sort(java.util.Comparator.comparingDouble(CaptureViews.Prediction::ioSizeKb).thenComparingDouble(CaptureViews.Prediction::oio));
        return out;
    }

    /** "[ds1] web/web_1.vmdk" → "web_1". */
    static String fileBase(String file) {
        String base = file.substring(file.lastIndexOf('/') + 1);
        int sp = base.lastIndexOf("] ");
        if (sp >= 0) {
            base = base.substring(sp + 2);
        }
        return base.endsWith(".vmdk") ? base.substring(0, base.length() - 5) : base;
    }
}
