package io.opensdrs.server.inventory;

import java.util.ArrayList;
import java.util.List;

/**
 * TEST FIXTURE ONLY: an in-memory {@link VCenterInventorySource} that exercises the sync logic
 * and its persistence. It is not a vCenter client and is never used by the server itself; the
 * vim25 implementation is a later issue. Tests set the snapshot and queue change sets.
 */
public class InMemoryInventorySource implements VCenterInventorySource {

    private volatile InventorySnapshot snapshot;
    private final List<InventoryChanges> pending = new ArrayList<>();

    public synchronized void setSnapshot(InventorySnapshot snapshot) {
        this.snapshot = snapshot;
        pending.clear();
    }

    public synchronized void queue(InventoryChanges changes) {
        pending.add(changes);
    }

    /** A read in flight: the next full read takes the snapshot, counts {@code reading} down, then waits for {@code answer}. */
    public record SlowRead(java.util.concurrent.CountDownLatch reading, java.util.concurrent.CountDownLatch answer) {
    }

    private volatile SlowRead slowRead;

    public void slowNextRead(SlowRead r) {
        slowRead = r;
    }

    @Override
    public InventorySnapshot fullSnapshot() {
        InventorySnapshot taken;
        SlowRead slow;
        synchronized (this) {
            if (snapshot == null) {
                throw new IllegalStateException("fixture has no snapshot");
            }
            taken = snapshot;
            slow = slowRead;
            slowRead = null;
        }
        if (slow != null) {
            slow.reading().countDown();
            try {
                slow.answer().await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return taken;
    }

    @Override
    public synchronized InventoryChanges changesSince(String version) {
        if (pending.isEmpty()) {
            return new InventoryChanges(version, false, List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        }
        return pending.remove(0);
    }

    /** A small inventory: one datacenter, one StoragePod with ds-a and ds-b, ds-c outside, two hosts, two VMs. */
    public static InventorySnapshot sample(String version) {
        return new InventorySnapshot(version,
                List.of(new InventorySnapshot.DatacenterInfo("datacenter-1", "dc1")),
                List.of(new InventorySnapshot.StoragePodInfo("group-p1", "pod1", "datacenter-1")),
                List.of(ds("datastore-11", "ds-a", "group-p1", 1000L << 30, 400L << 30),
                        ds("datastore-12", "ds-b", "group-p1", 2000L << 30, 1500L << 30),
                        ds("datastore-13", "ds-c", null, 500L << 30, 100L << 30)),
                List.of(new InventorySnapshot.HostInfo("host-21", "esx1", "datacenter-1", List.of("datastore-11", "datastore-12")),
                        new InventorySnapshot.HostInfo("host-22", "esx2", "datacenter-1", List.of("datastore-11", "datastore-12", "datastore-13"))),
                List.of(new InventorySnapshot.VmInfo("vm-31", "web", "host-21", List.of(
                                new InventorySnapshot.VirtualDiskInfo(2000, "[ds-a] web/web.vmdk", 40L << 30, "datastore-11"),
                                new InventorySnapshot.VirtualDiskInfo(2001, "[ds-b] web/web_1.vmdk", 100L << 30, "datastore-12")), "datastore-11", 0),
                        new InventorySnapshot.VmInfo("vm-32", "db", "host-22", List.of(
                                new InventorySnapshot.VirtualDiskInfo(2000, "[ds-a] db/db.vmdk", 200L << 30, "datastore-11")), "datastore-11", 0)));
    }

    public static InventorySnapshot.DatastoreInfo ds(String moid, String name, String pod, long capacity, long free) {
        return new InventorySnapshot.DatastoreInfo(moid, name, "ds:///vmfs/volumes/" + moid + "/", "datacenter-1", pod, capacity, free,
                true, "normal");
    }
}
