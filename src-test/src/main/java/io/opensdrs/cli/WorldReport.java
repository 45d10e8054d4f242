package io.opensdrs.cli;

import io.opensdrs.scenario.DatastoreClusterSpec;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.DeviceSpec;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.EventSpec;
import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.RuleSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A plain-text description of a scenario's world as placed at hour 0. */
final class WorldReport {
    private final Scenario world;

    WorldReport(Scenario world) {
        this.world = world;
    }

    void print(PrintStream out) {
        out.printf(Locale.ROOT, "World '%s': %d datastores, %d hosts, %d VMs, %d virtual disks, %s hours, seed %d%n",
                world.name(), world.datastores().size(), world.hosts().size(), world.vms().size(),
                world.diskCount(), fmt(world.hours()), world.seed());
        if (!world.description().isEmpty()) {
            out.println("  " + world.description());
        }
        out.println();

        Map<String, double[]> load = new HashMap<>(); // datastore -> {disks, GB, outstanding IOs}
        for (VmSpec vm : world.vms()) {
            for (DiskSpec d : vm.disks()) {
                double[] l = load.computeIfAbsent(d.datastore(), k -> new double[3]);
                l[0]++;
                l[1] += d.sizeGB();
                l[2] += d.workload().oio();
            }
        }
        Map<String, String> clusterOf = new HashMap<>();
        for (DatastoreClusterSpec c : world.datastoreClusters()) {
            c.datastores().forEach(ds -> clusterOf.put(ds, c.name()));
        }

        String row = "%-10s %-14s %-52s %9s %8s %6s %6s%n";
        out.printf(Locale.ROOT, row, "cluster", "datastore", "device", "capacity", "used", "disks", "OIO");
        List<DatastoreSpec> ordered = new ArrayList<>(world.datastores());
        ordered.sort((a, b) -> clusterOf.getOrDefault(a.name(), "~").compareTo(clusterOf.getOrDefault(b.name(), "~")));
        for (DatastoreSpec ds : ordered) {
            double[] l = load.getOrDefault(ds.name(), new double[3]);
            out.printf(Locale.ROOT, row, clusterOf.getOrDefault(ds.name(), "-"), ds.name(), device(ds),
                    fmt(ds.capacityGB()) + " GB", String.format(Locale.ROOT, "%.0f%%", 100 * l[1] / ds.capacityGB()),
                    (int) l[0], fmt(l[2]));
        }
        out.println();
        for (HostSpec h : world.hosts()) {
            long vms = world.vms().stream().filter(v -> v.host().equals(h.name())).count();
            out.printf(Locale.ROOT, "host %-8s runs %2d VMs, sees %s%n", h.name(), vms, String.join(", ", h.datastores()));
        }
        if (!world.rules().isEmpty()) {
            out.println();
            for (RuleSpec r : world.rules()) {
                out.println("rule " + r.name() + ": " + rule(r));
            }
        }
        if (!world.events().isEmpty()) {
            out.println();
            for (EventSpec e : world.events()) {
                out.printf(Locale.ROOT, "at hour %5s: %s%n", fmt(e.atHour()), event(e));
            }
        }
    }

    private static String device(DatastoreSpec ds) {
        String thin = ds.thinProvisioned() ? ", thin" : "";
        String profile = ds.device().profile() == null ? "" : " [" + ds.device().profile() + "]";
        if (ds.device() instanceof DeviceSpec.HddArray h) {
            return "hdd-array " + opt(h.disks(), "x") + opt(h.rpm(), "rpm ")
                    + (h.raid() == null ? "" : h.raid()) + profile + thin;
        }
        DeviceSpec.Ssd s = (DeviceSpec.Ssd) ds.device();
        return "ssd " + opt(s.channels(), " channels") + profile + thin;
    }

    private static String opt(Object v, String suffix) {
        return v == null ? "" : v + suffix;
    }

    private static String rule(RuleSpec r) {
        if (r instanceof RuleSpec.VmAntiAffinity va) {
            return "VM anti-affinity between " + String.join(", ", va.vms());
        }
        if (r instanceof RuleSpec.VmdkAntiAffinity da) {
            return "VMDK anti-affinity in " + da.vm() + ": " + String.join(", ", da.disks());
        }
        RuleSpec.KeepTogether kt = (RuleSpec.KeepTogether) r;
        return (kt.enabled() ? "keep " : "do not keep ") + kt.vm() + "'s disks together";
    }

    private static String event(EventSpec e) {
        if (e instanceof EventSpec.Maintenance m) {
            return m.datastore() + " enters maintenance mode" + (m.ignoreAffinity() ? " (ignoring affinity rules)" : "");
        }
        if (e instanceof EventSpec.ExitMaintenance m) {
            return m.datastore() + " exits maintenance mode";
        }
        if (e instanceof EventSpec.AddDatastore a) {
            return "datastore " + a.datastore().name() + " added"
                    + (a.cluster() == null ? "" : " to cluster " + a.cluster())
                    + (a.hosts().isEmpty() ? ", seen by all hosts" : ", seen by " + String.join(", ", a.hosts()));
        }
        EventSpec.WorkloadShift w = (EventSpec.WorkloadShift) e;
        return w.vm() + "/" + w.disk() + " shifts to " + fmt(w.workload().oio()) + " OIO, "
                + fmt(w.workload().ioSizeKB()) + " KB, " + fmt(w.workload().readPct()) + "% reads, "
                + fmt(w.workload().randomPct()) + "% random";
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
