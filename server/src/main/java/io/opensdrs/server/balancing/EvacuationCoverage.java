package io.opensdrs.server.balancing;

import io.opensdrs.server.migration.ActionState;
import io.opensdrs.server.migration.MigrationAction;
import io.opensdrs.server.migration.MigrationStore;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a datastore's evacuation accounts for. An evacuation plan names each disk and VM home it
 * found on the datastore: in a recommendation (whole VM, some disks, or the home alone) or in a
 * fault. The datastore stays entering maintenance until nothing is left on it, so what the plan
 * does not account for would keep it entering for ever, silently:
 * <ul>
 *   <li>a VM created on the datastore after the plan, or a disk moved onto it by hand;</li>
 *   <li>a disk or home whose move was verified done, shown on the datastore again by an inventory
 *       read that began after the move ended: put back (a read that began before may lag, and is
 *       no evidence).</li>
 * </ul>
 * A VM whose relocation off the datastore is running (any recommendation's) is accounted for until
 * it ends, and whatever the plan left to an administrator — a fault, a recommendation still pending,
 * one that failed or was dismissed or cancelled — is accounted for: the plan is not made again for
 * those, which would only repeat it.
 */
@Component
public class EvacuationCoverage {

    private final JdbcTemplate jdbc;
    private final MigrationStore store;

    public EvacuationCoverage(JdbcTemplate jdbc, MigrationStore store) {
        this.jdbc = jdbc;
        this.store = store;
    }

    /** A disk ({@code diskKey}) or, with none, the home of a VM. */
    public record Item(String vmId, String vmName, Integer diskKey) {
        /** The engine's disk id ({@code vm-42/2000}); null for a home. */
        public String diskId() {
            return diskKey == null ? null : vmId + "/" + diskKey;
        }

        public String describe() {
            return diskKey == null ? "the home of VM " + vmName : "disk " + diskKey + " of VM " + vmName;
        }
    }

    /** What is on the datastore that the plan of balancing run {@code runId} does not account for; empty when everything is. */
    public List<Item> unaccounted(String datastoreId, long runId) {
        List<Item> disks = jdbc.query("SELECT vd.vm_moid, v.name, vd.disk_key FROM virtual_disk vd JOIN vm v ON v.moid = vd.vm_moid"
                + " WHERE vd.datastore_moid = ? ORDER BY vd.vm_moid, vd.disk_key", (rs, i) -> new Item(rs.getString(1), rs.getString(2),
                rs.getInt(3)), datastoreId);
        List<Item> homes = jdbc.query("SELECT moid, name FROM vm WHERE home_datastore_moid = ? ORDER BY moid",
                (rs, i) -> new Item(rs.getString(1), rs.getString(2), null), datastoreId);
        if (disks.isEmpty() && homes.isEmpty()) {
            return List.of();
        }
        Set<String> leaving = vmsLeaving(datastoreId);
        List<MigrationAction> planned = new ArrayList<>();
        for (Long rec : jdbc.queryForList("SELECT recommendation_id FROM recommendation_explanation WHERE run_id = ?", Long.class, runId)) {
            planned.addAll(store.actions(rec));
        }
        List<String[]> faults = jdbc.query("SELECT vm_moid, disk_id FROM fault WHERE run_id = ?",
                (rs, i) -> new String[] {rs.getString(1), rs.getString(2)}, runId);
        Optional<Instant> readAt = jdbc.query("SELECT last_read_at FROM inventory_sync_state WHERE id = 1",
                (rs, i) -> Optional.ofNullable(rs.getTimestamp(1)).map(Timestamp::toInstant)).stream().findFirst().flatMap(o -> o);

        List<Item> out = new ArrayList<>();
        for (Item d : disks) {
            boolean faulted = faults.stream().anyMatch(f -> d.vmId().equals(f[0])
                    && (f[1] == null || List.of(f[1].split(",")).contains(d.diskId())));
            if (!faulted && !leaving.contains(d.vmId()) && !accounted(planned, readAt, a -> a.vmId().equals(d.vmId()) && !a.homeOnly()
                    && (a.diskKeys().isEmpty() || a.diskKeys().contains(d.diskKey())))) {
                out.add(d);
            }
        }
        for (Item h : homes) {
            boolean faulted = faults.stream().anyMatch(f -> h.vmId().equals(f[0]));
            if (!faulted && !leaving.contains(h.vmId()) && !accounted(planned, readAt, a -> a.vmId().equals(h.vmId())
                    && a.diskKeys().isEmpty())) {
                out.add(h);
            }
        }
        return out;
    }

    private static boolean accounted(List<MigrationAction> planned, Optional<Instant> readAt,
                                     java.util.function.Predicate<MigrationAction> moves) {
        for (MigrationAction a : planned) {
            if (!moves.test(a)) {
                continue;
            }
            boolean back = a.state() == ActionState.SUCCEEDED && a.finishedAt() != null && readAt.isPresent()
                    && a.finishedAt().isBefore(readAt.get());
            if (!back) {
                return true;
            }
        }
        return false;
    }

    /** Actions being carried out: issued and not ended, or queued in a recommendation being applied. */
    private List<MigrationAction> inFlight() {
        List<MigrationAction> out = new ArrayList<>(store.actionsIn(ActionState.IN_FLIGHT));
        out.addAll(store.runnableQueued());
        return out;
    }

    /**
     * VMs a relocation off the datastore is being carried out for: an evacuation planned now leaves
     * them to it. A second relocation would fail its pre-conditions once the first has moved the
     * disks; a relocation of the VM elsewhere is no reason to wait, as the applier runs one per VM at
     * a time anyway.
     */
    public Set<String> vmsLeaving(String datastoreId) {
        Set<String> out = new HashSet<>();
        inFlight().stream().filter(a -> a.sourceDatastores().contains(datastoreId)).forEach(a -> out.add(a.vmId()));
        return out;
    }
}
