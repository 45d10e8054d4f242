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
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

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
    private final InventoryRepository inventory;
    private final TransactionTemplate tx;
    private final ObjectMapper json;
    private final VCenterPodSettings podSettings;
    private final Duration fullSyncInterval;
    private final Timer fullTimer;
    private final Timer incrementalTimer;

    public InventorySync(ObjectProvider<VCenterInventorySource> source, InventoryRepository inventory, TransactionTemplate tx,
                         io.opensdrs.server.SdrsProperties properties, MeterRegistry meters, ObjectMapper json,
                         VCenterPodSettings podSettings, ObjectProvider<OutdatedRecommendations> outdated) {
        this.outdated = outdated;
        this.json = json;
        this.podSettings = podSettings;
        this.source = source;
        this.inventory = inventory;
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
            Optional<Instant> lastFull = inventory.syncState().map(InventoryRepository.SyncState::lastFull);
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
                inventory.clear();
                snap.datacenters().forEach(inventory::saveDatacenter);
                snap.clusters().forEach(p -> upsert(p, readAt));
                snap.datastores().forEach(inventory::saveDatastore);
                snap.hosts().forEach(inventory::saveHost);
                snap.vms().forEach(inventory::saveVm);
                inventory.forgetSettingsOfRemovedVms();
                inventory.saveSyncState(snap.version(), true, readAt);
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
        Optional<String> version = inventory.syncState().map(InventoryRepository.SyncState::version);
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
            c.datacenters().forEach(inventory::saveDatacenter);
            c.clusters().forEach(p -> upsert(p, readAt));
            c.datastores().forEach(inventory::saveDatastore);
            c.hosts().forEach(inventory::saveHost);
            c.vms().forEach(inventory::saveVm);
            for (InventoryChanges.Removed r : c.removed()) {
                inventory.remove(r);
            }
            if (c.removed().stream().anyMatch(r -> r.kind() == InventoryChanges.Kind.VM)) {
                inventory.forgetSettingsOfRemovedVms();
            }
            inventory.saveSyncState(c.version(), false, readAt);
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

    /** @param readAt when the read of vCenter that saw the pod began */
    private void upsert(InventorySnapshot.StoragePodInfo p, Instant readAt) {
        StorageDrsRules rules = podSettings.asOf(p.moid(), p.rules(), readAt);
        inventory.saveCluster(p, rulesJson(p.moid(), rules));
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
            inventory.saveStorageDrsRules(podId, rulesJson(podId, rules));
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
}
