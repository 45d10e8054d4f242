package io.opensdrs.testbed.world;

import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.EventSpec;
import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.InvalidScenarioException;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioError;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.testbed.device.DeviceProfile;
import io.opensdrs.testbed.device.DeviceProfiles;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The world a scenario describes, as the testbed holds it: datastores with their device
 * profiles, virtual disks with their current placement and workloads, relocations in
 * progress. Placement changes come from outside (the vCenter simulator, or a balancing
 * policy run in virtual time) through {@link #relocate}; the world only checks that they
 * are possible.
 */
public final class World {
    private final Scenario scenario;
    private final Map<String, Datastore> datastores = new LinkedHashMap<>();
    private final Map<String, VirtualDisk> disks = new LinkedHashMap<>();
    private final List<Relocation> relocations = new ArrayList<>();
    private final List<String> log = new ArrayList<>();

    private World(Scenario scenario) {
        this.scenario = scenario;
    }

    /**
     * Builds the world. The scenario has passed the schema and consistency checks of
     * {@code ScenarioLoader}; what only the testbed knows (device profiles, RAID geometry)
     * is checked here, and every problem names the offending field.
     */
    public static World build(Scenario scenario) throws InvalidScenarioException {
        List<ScenarioError> errors = new ArrayList<>();
        Map<String, DeviceProfile> profiles = new LinkedHashMap<>();
        for (int i = 0; i < scenario.datastores().size(); i++) {
            DatastoreSpec d = scenario.datastores().get(i);
            resolve(d, "$.datastores[" + i + "].device", errors).ifPresent(p -> profiles.put(d.name(), p));
        }
        for (int i = 0; i < scenario.events().size(); i++) {
            if (scenario.events().get(i) instanceof EventSpec.AddDatastore a) {
                resolve(a.datastore(), "$.events[" + i + "].datastore.device", errors);
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidScenarioException(scenario.name(), errors);
        }
        World w = new World(scenario);
        for (DatastoreSpec d : scenario.datastores()) {
            Set<String> hosts = new LinkedHashSet<>();
            for (HostSpec h : scenario.hosts()) {
                if (h.sees(d.name())) {
                    hosts.add(h.name());
                }
            }
            w.datastores.put(d.name(), new Datastore(d, profiles.get(d.name()), hosts));
        }
        for (VmSpec vm : scenario.vms()) {
            for (DiskSpec disk : vm.disks()) {
                Datastore ds = w.datastores.get(disk.datastore());
                long size = (long) (disk.sizeGB() * (1L << 30));
                VirtualDisk vd = new VirtualDisk(vm.name(), disk.name(), vm.host(), size, ds.name(), ds.allocate(size),
                        disk.workload() != null ? disk.workload()
                                : new io.opensdrs.scenario.WorkloadSpec(0, null, null, null, null, null));
                w.disks.put(vd.id(), vd);
            }
        }
        return w;
    }

    private static java.util.Optional<DeviceProfile> resolve(DatastoreSpec d, String path, List<ScenarioError> errors) {
        try {
            return java.util.Optional.of(DeviceProfiles.resolve(d.device()));
        } catch (IllegalArgumentException e) {
            String field = e.getMessage().startsWith("unknown device profile") ? path + ".profile" : path;
            errors.add(new ScenarioError(field, e.getMessage()));
            return java.util.Optional.empty();
        }
    }

    public Scenario scenario() {
        return scenario;
    }

    public Collection<Datastore> datastores() {
        return datastores.values();
    }

    public Datastore datastore(String name) {
        Datastore d = datastores.get(name);
        if (d == null) {
            throw new IllegalArgumentException("no datastore named '" + name + "'");
        }
        return d;
    }

    public Collection<VirtualDisk> disks() {
        return disks.values();
    }

    public VirtualDisk disk(String id) {
        VirtualDisk d = disks.get(id);
        if (d == null) {
            throw new IllegalArgumentException("no virtual disk '" + id + "' (use vm/disk)");
        }
        return d;
    }

    public List<VirtualDisk> disksOn(String datastore) {
        List<VirtualDisk> out = new ArrayList<>();
        for (VirtualDisk d : disks.values()) {
            if (d.datastore().equals(datastore)) {
                out.add(d);
            }
        }
        return out;
    }

    public List<Relocation> relocations() {
        return List.copyOf(relocations);
    }

    /** What happened, in order (events applied, relocations started and finished). */
    public List<String> log() {
        return List.copyOf(log);
    }

    /**
     * Starts moving a disk to another datastore, as vCenter's RelocateVM_Task would.
     *
     * @throws IllegalArgumentException if the destination is unknown, invisible to the
     *                                  disk's host, the same datastore, or the disk is already moving
     */
    public Relocation relocate(String diskId, String destination, double nowMs) {
        VirtualDisk d = disk(diskId);
        Datastore to = datastore(destination);
        if (d.datastore().equals(destination)) {
            throw new IllegalArgumentException(diskId + " is already on " + destination);
        }
        if (!to.seenBy(d.host())) {
            throw new IllegalArgumentException("host " + d.host() + " of " + diskId + " cannot see " + destination);
        }
        for (Relocation r : relocations) {
            if (r.disk() == d) {
                throw new IllegalArgumentException(diskId + " is already being relocated");
            }
        }
        Relocation r = new Relocation(d, destination, to.allocate(d.sizeBytes()), nowMs);
        relocations.add(r);
        log.add(String.format("%.0f s: relocation of %s from %s to %s started", nowMs / 1000, diskId, r.from(),
                destination));
        return r;
    }

    /** Called by the run when a copy has finished: the disk now lives on the destination. */
    void completeRelocation(Relocation r, double nowMs) {
        relocations.remove(r);
        datastore(r.from()).release(r.disk().sizeBytes());
        r.disk().moveTo(r.to(), r.destinationBase());
        log.add(String.format("%.0f s: relocation of %s to %s completed", nowMs / 1000, r.disk().id(), r.to()));
    }

    /**
     * Adds an empty datastore now, on its own device, seen by the given hosts (every host when
     * empty): the scenario's addDatastore event, or a datastore added at run time.
     *
     * @throws IllegalArgumentException if the name is taken, a host is unknown or the device is not
     */
    public Datastore addDatastore(DatastoreSpec spec, java.util.Collection<String> seenBy) {
        if (datastores.containsKey(spec.name())) {
            throw new IllegalArgumentException("datastore '" + spec.name() + "' exists already");
        }
        Set<String> known = new LinkedHashSet<>();
        scenario.hosts().forEach(h -> known.add(h.name()));
        Set<String> hosts = new LinkedHashSet<>(seenBy);
        if (hosts.isEmpty()) {
            hosts.addAll(known);
        }
        for (String h : hosts) {
            if (!known.contains(h)) {
                throw new IllegalArgumentException("no host named '" + h + "'");
            }
        }
        Datastore d = new Datastore(spec, DeviceProfiles.resolve(spec.device()), hosts);
        datastores.put(spec.name(), d);
        return d;
    }

    /** Applies a timed event of the scenario. */
    void apply(EventSpec e, double nowMs) throws InvalidScenarioException {
        if (e instanceof EventSpec.Maintenance m) {
            datastore(m.datastore()).setMaintenance(true);
        } else if (e instanceof EventSpec.ExitMaintenance x) {
            datastore(x.datastore()).setMaintenance(false);
        } else if (e instanceof EventSpec.AddDatastore a) {
            addDatastore(a.datastore(), a.hosts());
        } else if (e instanceof EventSpec.WorkloadShift s) {
            disk(s.vm() + "/" + s.disk()).setWorkload(s.workload());
        }
        log.add(String.format("%.0f s: event %s", nowMs / 1000, e));
    }
}
