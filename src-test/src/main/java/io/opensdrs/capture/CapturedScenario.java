package io.opensdrs.capture;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.opensdrs.scenario.DatastoreClusterSpec;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.RuleSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The scenario a capture ({@code GET /api/v1/clusters/{id}/capture}) describes: one datastore
 * cluster with the captured datastores on the devices chosen for them ({@link DeviceMatch}), the
 * hosts and what each mounts of the cluster, the VMs with their disks where they are now, each
 * disk's workload per hour ({@link CapturedWorkload}), and the rules the scenario format has.
 * Names are made to fit the format (letters, digits, {@code . _ -}, at most 80; unique).
 */
public final class CapturedScenario {

    static final double GIB = 1L << 30;
    /** The scenario format's bound on a description. */
    static final int DESCRIPTION_MAX = 2000;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(SerializationFeature.INDENT_OUTPUT).build();

    /** The scenario and what was not carried over. */
    public record Result(Scenario scenario, List<String> notes) {
    }

    private CapturedScenario() {
    }

    /**
     * @param devices the device chosen for each datastore (by the capture's datastore name)
     * @param header the description's opening (where and when it was captured)
     */
    public static Result build(JsonNode capture, Map<String, DeviceMatch.Choice> devices, String scenarioName, String header) {
        List<String> notes = new ArrayList<>();
        Names dsNames = new Names();
        Names hostNames = new Names();
        Names vmNames = new Names();

        List<DatastoreSpec> datastores = new ArrayList<>();
        Map<String, Double> capacity = new HashMap<>();
        StringBuilder chosen = new StringBuilder();
        for (JsonNode d : capture.path("datastores")) {
            String name = dsNames.of(d.path("name").asText());
            DeviceMatch.Choice c = devices.get(d.path("name").asText());
            if (c == null) {
                throw new IllegalArgumentException("no device chosen for datastore " + d.path("name").asText());
            }
            double gb = Math.max(0.1, CapturedWorkload.round(d.path("capacityBytes").asLong() / GIB, 1));
            capacity.put(name, gb);
            Boolean thin = d.path("thinProvisioned").isBoolean() ? d.path("thinProvisioned").asBoolean() : null;
            datastores.add(new DatastoreSpec(name, gb, thin, c.device().spec()));
            JsonNode model = d.path("model");
            DeviceMatch.OperatingPoint op = c.operatingPoint();
            chosen.append(String.format(Locale.ROOT, "%s%s = %s (%s %s%s; line within %.0f %%%s)", chosen.isEmpty() ? "" : "; ", name,
                    c.device().label(), model.path("kind").asText(), model.path("source").asText(), params(model.path("parameters")),
                    100 * c.relativeDistance(), op == null || op.testbedMs() == null ? ""
                            : String.format(Locale.ROOT, "; of %d runs of near lines and their caches, its disks ran at %.1f ms, server %.1f", op.shortlisted(),
                            op.testbedMs(), op.serverMs())));
        }

        Map<String, Set<String>> mounts = new LinkedHashMap<>();
        for (JsonNode h : capture.path("hosts")) {
            Set<String> seen = new LinkedHashSet<>();
            h.path("datastores").forEach(x -> seen.add(dsNames.of(x.asText())));
            if (!seen.isEmpty()) {
                mounts.put(hostNames.of(h.path("name").asText()), seen);
            }
        }

        List<VmSpec> vms = new ArrayList<>();
        Map<String, String> diskOfFile = new HashMap<>(); // backing file -> "vm/disk" of the scenario
        Map<String, Double> placed = new HashMap<>();
        int disks = 0;
        int idleDisks = 0;
        for (JsonNode v : capture.path("vms")) {
            String vm = vmNames.of(v.path("name").asText());
            Names diskNames = new Names();
            List<DiskSpec> specs = new ArrayList<>();
            Set<String> needs = new LinkedHashSet<>();
            for (JsonNode d : v.path("disks")) {
                String ds = dsNames.of(d.path("datastore").asText());
                String disk = diskNames.of(d.path("name").asText());
                double gb = Math.max(0.01, CapturedWorkload.round(d.path("sizeBytes").asLong() / GIB, 2));
                var workload = CapturedWorkload.of(d.path("overall"), d.path("hours"));
                if (workload.phases().size() == 1 && workload.phases().get(0).fromHour() == 0 && workload.phases().get(0).toHour() == 24) {
                    idleDisks++;
                }
                specs.add(new DiskSpec(disk, gb, ds, null, workload));
                diskOfFile.put(d.path("file").asText(), vm + "/" + disk);
                placed.merge(ds, gb, Double::sum);
                needs.add(ds);
                disks++;
            }
            if (specs.isEmpty()) {
                continue;
            }
            String host = v.path("host").isTextual() ? hostNames.of(v.path("host").asText()) : null;
            if (host == null || !mounts.containsKey(host)) {
                host = mounts.entrySet().stream().filter(e -> e.getValue().containsAll(needs)).map(Map.Entry::getKey).findFirst()
                        .orElse(null);
                if (host == null) {
                    host = hostNames.of("host-of-" + vm);
                    mounts.put(host, new LinkedHashSet<>());
                }
                notes.add("VM " + vm + ": its host is not among the cluster's hosts; placed on " + host);
            }
            if (!mounts.get(host).containsAll(needs)) {
                notes.add("host " + host + " does not mount every datastore of VM " + vm + "'s disks; added to it");
                mounts.get(host).addAll(needs);
            }
            vms.add(new VmSpec(vm, host, null, null, specs, v.path("memoryMB").isInt() ? v.path("memoryMB").asInt() : null));
        }
        // the loader counts thick disks against capacity; vCenter's datastores may be overcommitted with thin ones
        for (Map.Entry<String, Double> e : placed.entrySet()) {
            if (e.getValue() > capacity.getOrDefault(e.getKey(), Double.MAX_VALUE)) {
                notes.add("datastore " + e.getKey() + " holds more disk (" + Math.round(e.getValue()) + " GB) than its capacity: its disks are thin");
                for (int i = 0; i < vms.size(); i++) {
                    VmSpec vm = vms.get(i);
                    List<DiskSpec> ds = vm.disks().stream().map(d -> d.datastore().equals(e.getKey())
                            ? new DiskSpec(d.name(), d.sizeGB(), d.datastore(), true, d.workload()) : d).toList();
                    vms.set(i, new VmSpec(vm.name(), vm.host(), vm.automation(), vm.keepTogether(), ds, vm.memoryMB()));
                }
            }
        }

        List<HostSpec> hosts = new ArrayList<>();
        mounts.forEach((h, ds) -> hosts.add(new HostSpec(h, List.copyOf(ds))));
        List<RuleSpec> rules = rules(capture.path("rules"), vmNames, diskOfFile, vms, notes);

        String cluster = new Names().of(capture.path("clusterName").asText("cluster"));
        String description = header + " Devices nearest each datastore's model (injector reads at 4 and 256 KiB, OIO 2-32, "
                + "measured in the testbed; near lines, with and without read and write-back caches, told apart by the datastore's own disks "
                + "against the server's mean latency, runs within 5 % of the nearest by the better line): " + chosen + ". Workloads: each disk's O, Z, R, X and think time per UTC hour "
                + "(sdrs capture).";
        if (description.length() > DESCRIPTION_MAX) {
            description = description.substring(0, DESCRIPTION_MAX - 1) + "…";
        }
        if (idleDisks > 0) {
            notes.add(idleDisks + " of " + disks + " disks had no IO in the captured windows: idle all day");
        }
        Scenario s = new Scenario(scenarioName, description, 1L, 24.0,
                List.of(new DatastoreClusterSpec(cluster, datastores.stream().map(DatastoreSpec::name).toList())),
                datastores, hosts, vms, rules, List.of());
        return new Result(s, notes);
    }

    private static List<RuleSpec> rules(JsonNode rules, Names vmNames, Map<String, String> diskOfFile, List<VmSpec> vms,
                                        List<String> notes) {
        Set<String> present = new HashSet<>();
        vms.forEach(v -> present.add(v.name()));
        Names ruleNames = new Names();
        List<RuleSpec> out = new ArrayList<>();
        for (JsonNode r : rules) {
            String kind = r.path("kind").asText();
            boolean enabled = r.path("enabled").asBoolean(true);
            List<String> members = new ArrayList<>();
            r.path("members").forEach(m -> members.add(m.asText()));
            switch (kind) {
                case "vmAntiAffinity" -> {
                    List<String> in = members.stream().map(vmNames::known).filter(n -> n != null && present.contains(n)).distinct().toList();
                    if (!enabled) {
                        notes.add("rule " + r.path("name").asText() + " is disabled in vCenter: left out");
                    } else if (in.size() >= 2) {
                        out.add(new RuleSpec.VmAntiAffinity(ruleNames.of(r.path("name").asText()), in));
                    }
                }
                case "vmdkAntiAffinity" -> {
                    List<String> in = members.stream().map(diskOfFile::get).filter(java.util.Objects::nonNull).toList();
                    if (!enabled) {
                        notes.add("rule " + r.path("name").asText() + " is disabled in vCenter: left out");
                    } else if (in.size() >= 2 && in.stream().map(x -> x.substring(0, x.indexOf('/'))).distinct().count() == 1) {
                        String vm = in.get(0).substring(0, in.get(0).indexOf('/'));
                        out.add(new RuleSpec.VmdkAntiAffinity(ruleNames.of(r.path("name").asText()), vm,
                                in.stream().map(x -> x.substring(x.indexOf('/') + 1)).toList()));
                    }
                }
                case "intraVmAffinity" -> {
                    String vm = members.isEmpty() ? null : vmNames.known(members.get(0));
                    if (vm != null && present.contains(vm)) {
                        out.add(new RuleSpec.KeepTogether(ruleNames.of("keep-together-" + vm), vm, enabled));
                    }
                }
                default -> notes.add("rule " + r.path("name").asText() + " of kind " + kind + ": the scenario format has no such rule");
            }
        }
        return out;
    }

    private static String params(JsonNode p) {
        StringBuilder b = new StringBuilder();
        for (String k : List.of("m", "C")) {
            if (p.has(k)) {
                b.append(String.format(Locale.ROOT, " %s %.3g", k, p.get(k).asDouble()));
            }
        }
        return b.toString();
    }

    /** The scenario as indented JSON in the scenario-file format. */
    public static String toJson(Scenario s) {
        try {
            return JSON.writeValueAsString(s) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Names as the scenario format allows them, each original name given one unique name. */
    static final class Names {
        private final Map<String, String> given = new HashMap<>();
        private final Set<String> used = new HashSet<>();

        String of(String original) {
            return given.computeIfAbsent(original, o -> {
                String base = sanitize(o);
                String n = base;
                for (int i = 2; !used.add(n); i++) {
                    String suffix = "-" + i;
                    n = (base.length() + suffix.length() > 80 ? base.substring(0, 80 - suffix.length()) : base) + suffix;
                }
                return n;
            });
        }

        /** The name given to {@code original} before; null when none was. */
        String known(String original) {
            return given.get(original);
        }

        static String sanitize(String s) {
            String n = s == null ? "" : s.replaceAll("[^A-Za-z0-9._-]", "-");
            n = n.replaceFirst("^[^A-Za-z0-9]+", "");
            if (n.isEmpty()) {
                n = "x";
            }
            return n.length() > 80 ? n.substring(0, 80) : n;
        }
    }
}
