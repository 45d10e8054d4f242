package io.opensdrs.server.migration;

import io.opensdrs.server.vsphere.InventorySnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pending recommendations a change outside Storage DRS has overtaken: a disk or a VM moved in the
 * vSphere Client or with govc, a disk or a VM removed, the destination datastore removed. Each is
 * withdrawn once the stored inventory has read the change, rather than left for an administrator
 * to apply and see fail: the test is the applier's own ({@link MigrationPreconditions#placementGone}),
 * asked of the stored inventory instead of vCenter. A recommendation of a VM that a recommendation
 * being applied moves, or with a relocation in flight, is left alone: its placement is changing
 * under Storage DRS's own hands, and the applier supersedes it when that move ends, naming it.
 */
@Component
public class OutdatedRecommendations {

    private static final Logger log = LoggerFactory.getLogger(OutdatedRecommendations.class);

    private final MigrationStore store;
    private final Recommendations recommendations;
    private final JdbcTemplate jdbc;
    private final MoveDescriptions names;

    public OutdatedRecommendations(MigrationStore store, Recommendations recommendations, JdbcTemplate jdbc, MoveDescriptions names) {
        this.store = store;
        this.recommendations = recommendations;
        this.jdbc = jdbc;
        this.names = names;
    }

    /** Withdraws every pending recommendation whose placement is gone from the stored inventory; how many. */
    public int withdraw() {
        List<Recommendation> pending = store.recommendationsIn(RecommendationState.PENDING);
        if (pending.isEmpty()) {
            return 0;
        }
        Set<String> beingMoved = new HashSet<>();
        store.recommendationsIn(RecommendationState.APPLYING).forEach(r -> store.actions(r.id()).forEach(a -> beingMoved.add(a.vmId())));
        store.actionsIn(ActionState.IN_FLIGHT).forEach(a -> beingMoved.add(a.vmId()));
        Map<Long, List<MigrationAction>> actions = new LinkedHashMap<>();
        Set<String> vms = new LinkedHashSet<>();
        for (Recommendation r : pending) {
            List<MigrationAction> as = store.actions(r.id());
            // an action past QUEUED under a PENDING recommendation is the applier's to resume (a crash between its steps)
            if (as.stream().allMatch(a -> a.state() == ActionState.QUEUED) && as.stream().noneMatch(a -> beingMoved.contains(a.vmId()))) {
                actions.put(r.id(), as);
                as.forEach(a -> vms.add(a.vmId()));
            }
        }
        InventorySnapshot stored = storedPlacement(vms);
        int withdrawn = 0;
        for (Map.Entry<Long, List<MigrationAction>> e : actions.entrySet()) {
            Optional<String> why = e.getValue().stream().map(a -> MigrationPreconditions.placementGone(stored, a, names))
                    .flatMap(Optional::stream).map(MigrationPreconditions.Outcome::message).findFirst();
            if (why.isPresent() && recommendations.withdrawOutdated(e.getKey(), why.get())) {
                log.info("recommendation {} withdrawn: {}", e.getKey(), why.get());
                withdrawn++;
            }
        }
        return withdrawn;
    }

    /** Every datastore, and the given VMs with their disks, as the stored inventory holds them. */
    private InventorySnapshot storedPlacement(Set<String> vmIds) {
        List<InventorySnapshot.Datastore> datastores = jdbc.query("SELECT moid, name, url, capacity_bytes, free_bytes, accessible,"
                        + " maintenance_mode, cluster_moid FROM datastore",
                (rs, i) -> new InventorySnapshot.Datastore(rs.getString(1), rs.getString(2), rs.getString(3), null, rs.getLong(4),
                        rs.getLong(5), rs.getBoolean(6), rs.getString(7), rs.getString(8)));
        List<InventorySnapshot.Vm> vms = new ArrayList<>();
        for (String id : vmIds) {
            List<InventorySnapshot.VirtualDisk> disks = jdbc.query("SELECT disk_key, file_name, datastore_moid, size_bytes FROM virtual_disk"
                            + " WHERE vm_moid = ? ORDER BY disk_key",
                    (rs, i) -> new InventorySnapshot.VirtualDisk(rs.getInt(1), null, rs.getString(2), rs.getString(3), rs.getLong(4), false), id);
            jdbc.query("SELECT name, host_moid, home_datastore_moid, home_bytes FROM vm WHERE moid = ?", rs -> {
                Set<String> on = new LinkedHashSet<>();
                disks.forEach(d -> on.add(d.datastoreId()));
                String home = rs.getString(3);
                if (home != null) {
                    on.add(home);
                }
                vms.add(new InventorySnapshot.Vm(id, rs.getString(1), rs.getString(2), List.copyOf(on), disks, home, rs.getLong(4)));
            }, id);
        }
        return new InventorySnapshot("", List.of(), List.of(), datastores, List.of(), vms);
    }
}
