package io.opensdrs.server.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opensdrs.server.migration.OutdatedRecommendations;
import io.opensdrs.server.migration.StoredInventory;
import io.opensdrs.server.settings.VCenterPodSettings;
import io.opensdrs.server.vsphere.StorageDrsRules;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps the stored inventory in step with vCenter: a full sync (everything replaced in one
 * transaction), then incremental updates from the version it ended at; a full sync again when the
 * source asks for one or the full-sync interval has passed. Each run is validated before anything
 * is written and is applied in one transaction, so a crash mid-way leaves the previous inventory.
 */
@Component
public class InventorySync implements StoredInventory {

    private static final Logger log = LoggerFactory.getLogger(InventorySync.class);

    /** What a run did. */
    public record Result(String kind, String version, int datastores, int hosts, int vms, int removed) {
    }

    private final ObjectProvider<VCenterInventorySource> source;
    private final ObjectProvider<OutdatedRecommendations> outdated;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final ObjectMapper json;
    private final VCenterPodSettings podSettings;
    private final Duration fullSyncInterval;
    private final Timer fullTimer;
    private final Timer incrementalTimer;

    public InventorySync(ObjectProvider<VCenterInventorySource> source, JdbcTemplate jdbc, TransactionTemplate tx,
                         io.opensdrs.server.SdrsProperties properties, MeterRegistry meters, ObjectMapper json,
                         VCenterPodSettings podSettings, ObjectProvider<OutdatedRecommendations> outdated) {
        this.outdated = outdated;
        this.json = json;
        this.podSettings = podSettings;
        this.source = source;
        this.jdbc = jdbc;
        this.tx = tx;
        this.fullSyncInterval = properties.getInventory().getFullSyncInterval();
        this.fullTimer = Timer.builder("sdrs.run.duration").tag("run", "inventory-full").register(meters);
        this.incrementalTimer = Timer.builder("sdrs.run.duration").tag("run", "inventory-incremental").register(meters);
    }

    public boolean hasSource() {
        return source.getIfAvailable() != null;
    }

    /** Scheduled: incremental when possible, full when due or needed; idle without a source. */
    @Scheduled(fixedDelayString = "${sdrs.inventory.incremental-interval:PT20S}")
    public void tick() {
        if (!hasSource()) {
            return;
        }
        try {
            Optional<Instant> lastFull = state().map(s -> s.lastFull);
            if (lastFull.isEmpty() || lastFull.get().plus(fullSyncInterval).isBefore(Instant.now())) {
                fullSync();
            } else {
                incrementalSync();
            }
        } catch (RuntimeException e) {
            log.warn("inventory sync failed: {}", e.toString());
        }
    }

    /**
     * Replaces the stored inventory with vCenter's. One sync at a time (this and
     * {@link #incrementalSync()} are synchronized): the scheduled loop and a sync asked for through
     * the REST API would otherwise both delete and insert the same rows, and one fail on a duplicate key.
     */
    public synchronized Result fullSync() {
        VCenterInventorySource s = requireSource();
        return fullTimer.record(() -> {
            Instant readAt = Instant.now();
            InventorySnapshot snap = s.fullSnapshot();
            InventoryValidator.check(snap.datacenters(), snap.clusters(), snap.datastores(), snap.hosts(), snap.vms())
                    .ifPresent(e -> {
                        throw new InvalidInventoryException("vCenter inventory refused: " + e);
                    });
            tx.executeWithoutResult(t -> {
                for (String table : List.of("virtual_disk", "vm", "host_datastore", "host", "datastore", "datastore_cluster", "datacenter")) {
                    jdbc.update("DELETE FROM " + table);
                }
                snap.datacenters().forEach(this::upsert);
                snap.clusters().forEach(p -> upsert(p, readAt));
                snap.datastores().forEach(this::upsert);
                snap.hosts().forEach(this::upsert);
                snap.vms().forEach(this::upsert);
                forgetSettingsOfRemovedVms();
                saveState(snap.version(), true, readAt);
            });
            log.info("inventory full sync at version {}: {} datastores, {} hosts, {} VMs", snap.version(),
                    snap.datastores().size(), snap.hosts().size(), snap.vms().size());
            withdrawOutdatedRecommendations();
            return new Result("full", snap.version(), snap.datastores().size(), snap.hosts().size(), snap.vms().size(), 0);
        });
    }

    /** A move vCenter completed, read in before the applier records it done; nothing to read without a source. */
    @Override
    public void refresh() {
        if (hasSource()) {
            incrementalSync();
        }
    }

    public synchronized Result incrementalSync() {
        VCenterInventorySource s = requireSource();
        Optional<String> version = state().map(st -> st.version);
        if (version.isEmpty()) {
            return fullSync();
        }
        Instant readAt = Instant.now();
        InventoryChanges c = incrementalTimer.record(() -> s.changesSince(version.get()));
        if (c.fullResyncRequired()) {
            return fullSync();
        }
        InventoryValidator.check(c.datacenters(), c.clusters(), c.datastores(), c.hosts(), c.vms()).ifPresent(e -> {
            throw new InvalidInventoryException("vCenter changes refused: " + e);
        });
        tx.executeWithoutResult(t -> {
            c.datacenters().forEach(this::upsert);
            c.clusters().forEach(p -> upsert(p, readAt));
            c.datastores().forEach(this::upsert);
            c.hosts().forEach(this::upsert);
            c.vms().forEach(this::upsert);
            for (InventoryChanges.Removed r : c.removed()) {
                remove(r);
            }
            if (c.removed().stream().anyMatch(r -> r.kind() == InventoryChanges.Kind.VM)) {
                forgetSettingsOfRemovedVms();
            }
            saveState(c.version(), false, readAt);
        });
        withdrawOutdatedRecommendations();
        return new Result("incremental", c.version(), c.datastores().size(), c.hosts().size(), c.vms().size(), c.removed().size());
    }

    /**
     * After every sync, not only one that read changes: a plan made on the inventory before a
     * sync may be recorded after it, for a placement that sync had already replaced.
     */
    private void withdrawOutdatedRecommendations() {
        OutdatedRecommendations o = outdated.getIfAvailable();
        if (o == null) {
            return;
        }
        try {
            o.withdraw();
        } catch (RuntimeException e) {
            // the sync itself is stored; the next one looks again
            log.warn("checking pending recommendations against the inventory failed: {}", e.toString());
        }
    }

    private VCenterInventorySource requireSource() {
        VCenterInventorySource s = source.getIfAvailable();
        if (s == null) {
            throw new IllegalStateException("no vCenter inventory source is configured");
        }
        return s;
    }

    private void upsert(InventorySnapshot.DatacenterInfo d) {
        jdbc.update("DELETE FROM datacenter WHERE moid = ?", d.moid());
        jdbc.update("INSERT INTO datacenter (moid, name) VALUES (?, ?)", d.moid(), d.name());
    }

    /** @param readAt when the read of vCenter that saw the pod began */
    private void upsert(InventorySnapshot.StoragePodInfo p, Instant readAt) {
        StorageDrsRules rules = podSettings.asOf(p.moid(), p.rules(), readAt);
        jdbc.update("DELETE FROM datastore_cluster WHERE moid = ?", p.moid());
        jdbc.update("INSERT INTO datastore_cluster (moid, name, datacenter_moid, storage_drs_rules_json) VALUES (?, ?, ?, ?)",
                p.moid(), p.name(), p.datacenterMoid(), rulesJson(p.moid(), rules));
        podSettings.adopt(p.moid(), rules);
    }

    /**
     * A pod's Storage DRS configuration as vCenter holds it just now, read after this server
     * changed it there: stored at once, so that the answer to the change shows it, rather than at
     * the next sync (which reads the same).
     */
    public void storeStorageDrsRules(String podId, StorageDrsRules rules) {
        podSettings.changedInVCenter(podId);
        tx.executeWithoutResult(t -> {
            jdbc.update("UPDATE datastore_cluster SET storage_drs_rules_json = ? WHERE moid = ?", rulesJson(podId, rules), podId);
            podSettings.adopt(podId, rules);
        });
    }

    private String rulesJson(String podId, StorageDrsRules rules) {
        try {
            return json.writeValueAsString(rules);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("storage DRS rules of " + podId + " cannot be written: " + e.getMessage(), e);
        }
    }

    private void upsert(InventorySnapshot.DatastoreInfo d) {
        jdbc.update("DELETE FROM datastore WHERE moid = ?", d.moid());
        jdbc.update("INSERT INTO datastore (moid, name, url, datacenter_moid, cluster_moid, capacity_bytes, free_bytes, accessible,"
                        + " maintenance_mode) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", d.moid(), d.name(), d.url(), d.datacenterMoid(),
                d.clusterMoid(), d.capacityBytes(), d.freeBytes(), d.accessible(), d.maintenanceMode());
        rememberName(d.moid(), d.name());
    }

    private void upsert(InventorySnapshot.HostInfo h) {
        jdbc.update("DELETE FROM host_datastore WHERE host_moid = ?", h.moid());
        jdbc.update("DELETE FROM host WHERE moid = ?", h.moid());
        jdbc.update("INSERT INTO host (moid, name, datacenter_moid) VALUES (?, ?, ?)", h.moid(), h.name(), h.datacenterMoid());
        for (String ds : new HashSet<>(h.datastoreMoids())) {
            jdbc.update("INSERT INTO host_datastore (host_moid, datastore_moid) VALUES (?, ?)", h.moid(), ds);
        }
    }

    private void upsert(InventorySnapshot.VmInfo v) {
        jdbc.update("DELETE FROM virtual_disk WHERE vm_moid = ?", v.moid());
        jdbc.update("DELETE FROM vm WHERE moid = ?", v.moid());
        jdbc.update("INSERT INTO vm (moid, name, host_moid, home_datastore_moid, home_bytes, swap_datastore_moid, swap_bytes,"
                + " powered_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", v.moid(), v.name(), v.hostMoid(), v.homeDatastoreMoid(),
                v.homeBytes(), v.swapDatastoreMoid(), v.swapBytes(), v.poweredOn());
        rememberName(v.moid(), v.name());
        for (InventorySnapshot.VirtualDiskInfo d : v.disks()) {
            jdbc.update("INSERT INTO virtual_disk (vm_moid, disk_key, file_name, size_bytes, datastore_moid, perf_instance)"
                            + " VALUES (?, ?, ?, ?, ?, ?)", v.moid(), d.key(), d.fileName(), d.sizeBytes(), d.datastoreMoid(),
                    d.perfInstance());
        }
    }

    /** Kept when the object leaves the inventory (V67__known_name.sql): what it was called is still said after. */
    private void rememberName(String moid, String name) {
        jdbc.update("DELETE FROM known_name WHERE moid = ?", moid);
        jdbc.update("INSERT INTO known_name (moid, name) VALUES (?, ?)", moid, name);
    }

    /**
     * A VM that left vCenter takes its Storage DRS override and its service class with it: vCenter drops a destroyed
     * VM's entry in the pod's vmConfig, and a VM id is never used again, so the rows would only be listed, stale,
     * among the cluster's VM overrides.
     */
    private void forgetSettingsOfRemovedVms() {
        jdbc.update("DELETE FROM vm_override WHERE vm_moid NOT IN (SELECT moid FROM vm)");
        jdbc.update("DELETE FROM vm_service_class WHERE vm_moid NOT IN (SELECT moid FROM vm)");
    }

    private void remove(InventoryChanges.Removed r) {
        switch (r.kind()) {
            case DATACENTER:
                jdbc.update("DELETE FROM datacenter WHERE moid = ?", r.moid());
                break;
            case STORAGE_POD:
                jdbc.update("UPDATE datastore SET cluster_moid = NULL WHERE cluster_moid = ?", r.moid());
                jdbc.update("DELETE FROM datastore_cluster WHERE moid = ?", r.moid());
                break;
            case DATASTORE:
                jdbc.update("DELETE FROM host_datastore WHERE datastore_moid = ?", r.moid());
                jdbc.update("DELETE FROM datastore WHERE moid = ?", r.moid());
                break;
            case HOST:
                jdbc.update("DELETE FROM host_datastore WHERE host_moid = ?", r.moid());
                jdbc.update("DELETE FROM host WHERE moid = ?", r.moid());
                break;
            default:
                jdbc.update("DELETE FROM virtual_disk WHERE vm_moid = ?", r.moid());
                jdbc.update("DELETE FROM vm WHERE moid = ?", r.moid());
        }
    }

    private record State(String version, Instant lastFull) {
    }

    private Optional<State> state() {
        return jdbc.query("SELECT version, last_full_sync_at FROM inventory_sync_state WHERE id = 1",
                (rs, i) -> new State(rs.getString(1), rs.getTimestamp(2) == null ? null : rs.getTimestamp(2).toInstant()))
                .stream().filter(s -> s.version != null).findFirst();
    }

    /** @param readAt when the read of vCenter behind this state began (balancing/EvacuationCoverage) */
    private void saveState(String version, boolean full, Instant readAt) {
        Timestamp now = Timestamp.from(Instant.now());
        Timestamp lastFull = full ? now : state().map(s -> Timestamp.from(s.lastFull)).orElse(now);
        jdbc.update("DELETE FROM inventory_sync_state WHERE id = 1");
        jdbc.update("INSERT INTO inventory_sync_state (id, version, last_full_sync_at, last_change_at, last_read_at) VALUES (1, ?, ?, ?, ?)",
                version, lastFull, now, Timestamp.from(readAt));
    }

    /** Moids known to the stored inventory for a kind (for tests and the API). */
    Set<String> storedMoids(String table) {
        return new HashSet<>(jdbc.queryForList("SELECT moid FROM " + table, String.class));
    }
}
