package io.opensdrs.scenario;

import java.util.List;
import java.util.Optional;

/**
 * A world for the testbed (SPEC §7): datastores with device profiles, hosts, VMs with
 * disks and workloads placed on datastores, affinity rules and timed events.
 *
 * <p>Instances come from {@link ScenarioLoader}, which has already checked the schema
 * ({@code scenario.schema.json}) and the cross-references ({@link ScenarioConsistency}).
 */
public record Scenario(
        String name,
        String description,
        Long seed,
        Double hours,
        List<DatastoreClusterSpec> datastoreClusters,
        List<DatastoreSpec> datastores,
        List<HostSpec> hosts,
        List<VmSpec> vms,
        List<RuleSpec> rules,
        List<EventSpec> events) {

    public Scenario {
        description = description == null ? "" : description;
        seed = seed == null ? 1L : seed;
        hours = hours == null ? 24.0 : hours;
        datastoreClusters = datastoreClusters == null ? List.of() : List.copyOf(datastoreClusters);
        datastores = List.copyOf(datastores);
        hosts = List.copyOf(hosts);
        vms = vms == null ? List.of() : List.copyOf(vms);
        rules = rules == null ? List.of() : List.copyOf(rules);
        events = events == null ? List.of() : List.copyOf(events);
    }

    public Optional<DatastoreSpec> datastore(String datastoreName) {
        return datastores.stream().filter(d -> d.name().equals(datastoreName)).findFirst();
    }

    public Optional<HostSpec> host(String hostName) {
        return hosts.stream().filter(h -> h.name().equals(hostName)).findFirst();
    }

    public Optional<VmSpec> vm(String vmName) {
        return vms.stream().filter(v -> v.name().equals(vmName)).findFirst();
    }

    /** Number of virtual disks in the world at the start. */
    public int diskCount() {
        return vms.stream().mapToInt(v -> v.disks().size()).sum();
    }
}
