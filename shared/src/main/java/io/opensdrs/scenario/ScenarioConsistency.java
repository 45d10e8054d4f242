package io.opensdrs.scenario;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks a JSON Schema cannot express: unique names, references to things that exist,
 * a disk only on a datastore its VM's host can see, space, and events that make sense at
 * the hour they happen. Runs on a scenario that already passed the schema.
 */
final class ScenarioConsistency {
    private final Scenario s;
    private final List<ScenarioError> errors = new ArrayList<>();

    private ScenarioConsistency(Scenario s) {
        this.s = s;
    }

    static List<ScenarioError> check(Scenario scenario) {
        ScenarioConsistency c = new ScenarioConsistency(scenario);
        c.run();
        return c.errors;
    }

    private void error(String path, String message) {
        errors.add(new ScenarioError(path, message));
    }

    private void run() {
        Map<String, DatastoreSpec> datastores = new LinkedHashMap<>();
        for (int i = 0; i < s.datastores().size(); i++) {
            DatastoreSpec d = s.datastores().get(i);
            if (datastores.putIfAbsent(d.name(), d) != null) {
                error("$.datastores[" + i + "].name", "duplicate datastore name '" + d.name() + "'");
            }
        }
        // Datastores added by events count as names too, and may be referenced after they appear.
        Map<String, Double> addedAt = new HashMap<>();
        for (int i = 0; i < s.events().size(); i++) {
            if (s.events().get(i) instanceof EventSpec.AddDatastore add) {
                String n = add.datastore().name();
                if (datastores.containsKey(n) || addedAt.containsKey(n)) {
                    error("$.events[" + i + "].datastore.name", "duplicate datastore name '" + n + "'");
                } else {
                    addedAt.put(n, add.atHour());
                }
            }
        }

        checkClusters(datastores, addedAt);
        Map<String, HostSpec> hosts = checkHosts(datastores);
        checkVms(datastores, hosts);
        checkRules();
        checkEvents(datastores, addedAt, hosts);
    }

    private void checkClusters(Map<String, DatastoreSpec> datastores, Map<String, Double> addedAt) {
        Set<String> names = new HashSet<>();
        Map<String, String> clusterOf = new HashMap<>();
        for (int i = 0; i < s.datastoreClusters().size(); i++) {
            DatastoreClusterSpec c = s.datastoreClusters().get(i);
            String p = "$.datastoreClusters[" + i + "]";
            if (!names.add(c.name())) {
                error(p + ".name", "duplicate datastore cluster name '" + c.name() + "'");
            }
            for (int j = 0; j < c.datastores().size(); j++) {
                String ds = c.datastores().get(j);
                if (!datastores.containsKey(ds)) {
                    error(p + ".datastores[" + j + "]", addedAt.containsKey(ds)
                            ? "datastore '" + ds + "' is added by an event; name the cluster in that event"
                            : "unknown datastore '" + ds + "'");
                } else if (clusterOf.putIfAbsent(ds, c.name()) != null) {
                    error(p + ".datastores[" + j + "]", "datastore '" + ds + "' is already in datastore cluster '"
                            + clusterOf.get(ds) + "'");
                }
            }
        }
    }

    private Map<String, HostSpec> checkHosts(Map<String, DatastoreSpec> datastores) {
        Map<String, HostSpec> hosts = new LinkedHashMap<>();
        for (int i = 0; i < s.hosts().size(); i++) {
            HostSpec h = s.hosts().get(i);
            String p = "$.hosts[" + i + "]";
            if (hosts.putIfAbsent(h.name(), h) != null) {
                error(p + ".name", "duplicate host name '" + h.name() + "'");
            }
            Set<String> seen = new HashSet<>();
            for (int j = 0; j < h.datastores().size(); j++) {
                String ds = h.datastores().get(j);
                if (!datastores.containsKey(ds)) {
                    error(p + ".datastores[" + j + "]", "unknown datastore '" + ds + "'");
                } else if (!seen.add(ds)) {
                    error(p + ".datastores[" + j + "]", "datastore '" + ds + "' listed twice");
                }
            }
        }
        return hosts;
    }

    private void checkVms(Map<String, DatastoreSpec> datastores, Map<String, HostSpec> hosts) {
        Set<String> vmNames = new HashSet<>();
        Map<String, Double> usedGB = new HashMap<>();
        for (int i = 0; i < s.vms().size(); i++) {
            VmSpec vm = s.vms().get(i);
            String p = "$.vms[" + i + "]";
            if (!vmNames.add(vm.name())) {
                error(p + ".name", "duplicate VM name '" + vm.name() + "'");
            }
            HostSpec host = hosts.get(vm.host());
            if (host == null) {
                error(p + ".host", "unknown host '" + vm.host() + "'");
            }
            Set<String> diskNames = new HashSet<>();
            for (int j = 0; j < vm.disks().size(); j++) {
                DiskSpec d = vm.disks().get(j);
                String dp = p + ".disks[" + j + "]";
                if (!diskNames.add(d.name())) {
                    error(dp + ".name", "duplicate disk name '" + d.name() + "' in VM '" + vm.name() + "'");
                }
                if (!datastores.containsKey(d.datastore())) {
                    error(dp + ".datastore", "unknown datastore '" + d.datastore() + "'");
                } else if (host != null && !host.sees(d.datastore())) {
                    error(dp + ".datastore", "datastore '" + d.datastore() + "' is not visible from host '"
                            + host.name() + "' (it sees " + String.join(", ", host.datastores()) + ")");
                } else if (!d.thin()) {
                    usedGB.merge(d.datastore(), d.sizeGB(), Double::sum);
                }
                checkPhases(dp + ".workload", d.workload());
            }
        }
        for (int i = 0; i < s.datastores().size(); i++) {
            DatastoreSpec ds = s.datastores().get(i);
            double used = usedGB.getOrDefault(ds.name(), 0.0);
            if (used > ds.capacityGB()) {
                error("$.datastores[" + i + "].capacityGB", String.format(java.util.Locale.ROOT,
                        "%.1f GB, but the thick disks placed on '%s' need %.1f GB", ds.capacityGB(), ds.name(), used));
            }
        }
    }

    private void checkPhases(String path, WorkloadSpec w) {
        for (int k = 0; k < w.phases().size(); k++) {
            PhaseSpec ph = w.phases().get(k);
            if (ph.fromHour() >= ph.toHour()) {
                error(path + ".phases[" + k + "].toHour", "must be greater than fromHour (" + ph.fromHour() + ")");
            }
        }
    }

    private void checkRules() {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < s.rules().size(); i++) {
            RuleSpec r = s.rules().get(i);
            String p = "$.rules[" + i + "]";
            if (!names.add(r.name())) {
                error(p + ".name", "duplicate rule name '" + r.name() + "'");
            }
            if (r instanceof RuleSpec.VmAntiAffinity va) {
                Set<String> seen = new HashSet<>();
                for (int j = 0; j < va.vms().size(); j++) {
                    String vm = va.vms().get(j);
                    if (s.vm(vm).isEmpty()) {
                        error(p + ".vms[" + j + "]", "unknown VM '" + vm + "'");
                    } else if (!seen.add(vm)) {
                        error(p + ".vms[" + j + "]", "VM '" + vm + "' listed twice");
                    }
                }
            } else if (r instanceof RuleSpec.VmdkAntiAffinity da) {
                s.vm(da.vm()).ifPresentOrElse(vm -> {
                    Set<String> seen = new HashSet<>();
                    for (int j = 0; j < da.disks().size(); j++) {
                        String disk = da.disks().get(j);
                        if (vm.disk(disk).isEmpty()) {
                            error(p + ".disks[" + j + "]", "VM '" + vm.name() + "' has no disk '" + disk + "'");
                        } else if (!seen.add(disk)) {
                            error(p + ".disks[" + j + "]", "disk '" + disk + "' listed twice");
                        }
                    }
                }, () -> error(p + ".vm", "unknown VM '" + da.vm() + "'"));
            } else if (r instanceof RuleSpec.KeepTogether kt && s.vm(kt.vm()).isEmpty()) {
                error(p + ".vm", "unknown VM '" + kt.vm() + "'");
            }
        }
    }

    private void checkEvents(Map<String, DatastoreSpec> datastores, Map<String, Double> addedAt,
                             Map<String, HostSpec> hosts) {
        Set<String> clusters = new HashSet<>();
        s.datastoreClusters().forEach(c -> clusters.add(c.name()));
        for (int i = 0; i < s.events().size(); i++) {
            EventSpec e = s.events().get(i);
            String p = "$.events[" + i + "]";
            if (e.atHour() > s.hours()) {
                error(p + ".atHour", "hour " + e.atHour() + " is after the end of the run (" + s.hours() + " h)");
            }
            if (e instanceof EventSpec.Maintenance m) {
                checkDatastoreAt(p, m.datastore(), m.atHour(), datastores, addedAt);
            } else if (e instanceof EventSpec.ExitMaintenance m) {
                checkDatastoreAt(p, m.datastore(), m.atHour(), datastores, addedAt);
            } else if (e instanceof EventSpec.AddDatastore a) {
                if (a.cluster() != null && !clusters.contains(a.cluster())) {
                    error(p + ".cluster", "unknown datastore cluster '" + a.cluster() + "'");
                }
                for (int j = 0; j < a.hosts().size(); j++) {
                    if (!hosts.containsKey(a.hosts().get(j))) {
                        error(p + ".hosts[" + j + "]", "unknown host '" + a.hosts().get(j) + "'");
                    }
                }
            } else if (e instanceof EventSpec.WorkloadShift w) {
                s.vm(w.vm()).ifPresentOrElse(vm -> {
                    if (vm.disk(w.disk()).isEmpty()) {
                        error(p + ".disk", "VM '" + vm.name() + "' has no disk '" + w.disk() + "'");
                    }
                    checkPhases(p + ".workload", w.workload());
                }, () -> error(p + ".vm", "unknown VM '" + w.vm() + "'"));
            }
        }
    }

    private void checkDatastoreAt(String p, String ds, double atHour, Map<String, DatastoreSpec> datastores,
                                  Map<String, Double> addedAt) {
        if (datastores.containsKey(ds)) {
            return;
        }
        Double added = addedAt.get(ds);
        if (added == null) {
            error(p + ".datastore", "unknown datastore '" + ds + "'");
        } else if (added > atHour) {
            error(p + ".datastore", "datastore '" + ds + "' is only added at hour " + added);
        }
    }
}
