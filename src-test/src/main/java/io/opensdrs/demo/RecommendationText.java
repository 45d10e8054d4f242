package io.opensdrs.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.balance.DatastoreForecast;
import io.opensdrs.balance.Estimate;
import io.opensdrs.loop.ServerApi;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A recommendation as the demo prints it for an administrator, from what the server's REST API
 * returns for it: the reason code, the engine's sentence one clause a line (its cost and benefit
 * are its last clause, printed once), each affected datastore's predicted mean latency and p90
 * ("idle" where it carries no VM IO), and what vCenter is asked to move, by the names the vSphere
 * Client shows.
 */
final class RecommendationText {

    private static final double GIB = 1024.0 * 1024 * 1024;

    private RecommendationText() {
    }

    /** What the server's inventory calls things: datastore id → name, VM id → name, VM id → disk key → disk name. */
    record Names(Map<String, String> datastores, Map<String, String> vms, Map<String, Map<Integer, String>> disks) {

        /** Reads the names from the server's inventory ({@code /api/v1/datastores}, {@code /api/v1/disks}). */
        static Names read(ServerApi api) throws IOException, InterruptedException {
            Map<String, String> datastores = new LinkedHashMap<>();
            for (JsonNode d : api.get("/api/v1/datastores")) {
                if (d.hasNonNull("id")) {
                    datastores.put(d.path("id").asText(), d.path("name").asText());
                }
            }
            Map<String, String> vms = new LinkedHashMap<>();
            Map<String, Map<Integer, String>> disks = new LinkedHashMap<>();
            for (JsonNode d : api.get("/api/v1/disks?limit=10000")) {
                String vm = d.path("vm").asText();
                vms.put(vm, d.path("vmName").asText(vm));
                disks.computeIfAbsent(vm, k -> new LinkedHashMap<>()).put(d.path("diskKey").asInt(), diskName(d.path("file").asText("")));
            }
            return new Names(datastores, vms, disks);
        }

        String datastore(String id) {
            return datastores.getOrDefault(id, id);
        }

        String vm(String id) {
            return vms.getOrDefault(id, id);
        }

        /** The disk's file name without its folder and ".vmdk" ("data"), or "disk 2001" when the inventory has no file. */
        String disk(String vmId, int key) {
            String name = disks.getOrDefault(vmId, Map.of()).get(key);
            return name == null || name.isBlank() ? "disk " + key : name;
        }

        /** The VM's disks by name, in the order of their keys. */
        List<String> disksOf(String vmId) {
            return new java.util.TreeMap<>(disks.getOrDefault(vmId, Map.of())).values().stream().toList();
        }
    }

    /** "[gold-7k1] gold-web6/data.vmdk" → "data". */
    static String diskName(String file) {
        String name = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf(']')) + 1).trim();
        return name.endsWith(".vmdk") ? name.substring(0, name.length() - ".vmdk".length()) : name;
    }

    /**
     * The lines for recommendation {@code id}: {@code rec} is {@code GET /recommendations/{id}}, {@code why} its
     * explanation (null when an administrator made it).
     */
    static String describe(long id, JsonNode rec, JsonNode why, Names names) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  recommendation %d [%s]", id, rec.path("reasonCode").asText()));
        if (why != null) {
            List<String> clauses = clauses(why.path("summary").asText());
            for (int i = 0; i < clauses.size(); i++) {
                b.append(i == 0 ? " " : String.format("%n      ")).append(clauses.get(i)).append(i < clauses.size() - 1 ? ";" : "");
            }
            for (JsonNode f : why.path("datastores")) {
                DatastoreForecast d = forecast(f);
                b.append(String.format(Locale.ROOT, "%n      %-12s %-8s mean latency %s, p90 %s", f.path("datastoreName").asText(),
                        d.model(), d.latencyChange(), d.p90Change()));
            }
        }
        for (JsonNode a : rec.path("actions")) {
            b.append(String.format("%n      ")).append(action(a, names));
        }
        return b.toString();
    }

    /**
     * One action as what vCenter moves: "move VM gold-web6 whole (disks system, data and its home) from gold-7k1 to
     * gold-ssd1, 10.1 GB"; "move disk data of VM db from …"; "move the home of VM db (its disks stay) from …".
     */
    static String action(JsonNode a, Names names) {
        String vmId = a.path("vmId").asText();
        String vm = names.vm(vmId);
        List<Integer> keys = new ArrayList<>();
        a.path("diskKeys").forEach(k -> keys.add(k.asInt()));
        String what;
        if (a.path("homeOnly").asBoolean()) {
            what = "the home of VM " + vm + " (its configuration files; its disks stay)";
        } else if (keys.isEmpty()) {
            List<String> disks = names.disksOf(vmId);
            what = "VM " + vm + " whole (" + (disks.isEmpty() ? "its home"
                    : (disks.size() == 1 ? "disk " : "disks ") + String.join(", ", disks) + " and its home") + ")";
        } else {
            List<String> disks = keys.stream().map(k -> names.disk(vmId, k)).toList();
            what = (disks.size() == 1 ? "disk " : "disks ") + String.join(", ", disks) + " of VM " + vm;
        }
        List<String> from = new ArrayList<>();
        a.path("sourceDatastoreIds").forEach(s -> from.add(names.datastore(s.asText())));
        return String.format(Locale.ROOT, "move %s from %s to %s, %.1f GB", what, String.join(", ", from),
                names.datastore(a.path("destinationDatastoreId").asText()), a.path("sizeBytes").asLong() / GIB);
    }

    /** The REST forecast as the engine's, so that it reads as the engine's sentences do ("idle → 0.21 ms"). */
    static DatastoreForecast forecast(JsonNode f) {
        return new DatastoreForecast(f.path("datastoreId").asText(), f.path("model").asText(), estimate(f.path("latencyBeforeMs")),
                estimate(f.path("latencyAfterMs")), f.path("p90BeforeMs").asDouble(Double.NaN), f.path("p90AfterMs").asDouble(Double.NaN),
                f.path("idleBefore").asBoolean(), f.path("idleAfter").asBoolean());
    }

    private static Estimate estimate(JsonNode e) {
        if (e == null || e.isNull() || e.isMissingNode()) {
            return Estimate.exact(Double.NaN);
        }
        double v = e.path("value").asDouble();
        return new Estimate(v, Math.min(v, e.path("lower").asDouble(v)), Math.max(v, e.path("upper").asDouble(v)));
    }

    /** The sentence's clauses: split at "; " outside parentheses (the cost-benefit clause has one inside). */
    static List<String> clauses(String summary) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < summary.length(); i++) {
            char c = summary.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            } else if (c == ';' && depth == 0 && i + 1 < summary.length() && summary.charAt(i + 1) == ' ') {
                out.add(summary.substring(start, i));
                start = i + 2;
            }
        }
        out.add(summary.substring(start));
        return out;
    }
}
