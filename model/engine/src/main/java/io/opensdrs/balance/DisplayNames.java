package io.opensdrs.balance;

import java.util.Map;

/**
 * How the engine's sentences — recommendation summaries, faults, rule violations — name what
 * they talk about. The engine decides on ids (vCenter's managed object ids); an administrator
 * reads the names the vSphere Client shows, so a cluster assembled from the inventory carries
 * them. Whatever has no name here is named by its id (generated worlds, tests).
 *
 * @param datastores datastore id → datastore name
 * @param hosts host id → host name
 * @param vms VM id → VM name
 * @param disks disk id → the phrase a sentence names the disk by, e.g. "disk 2000 of VM db"
 */
public record DisplayNames(Map<String, String> datastores, Map<String, String> hosts, Map<String, String> vms,
                           Map<String, String> disks) {

    /** No names: every sentence names things by id. */
    public static final DisplayNames NONE = new DisplayNames(Map.of(), Map.of(), Map.of(), Map.of());

    public DisplayNames {
        datastores = datastores == null ? Map.of() : Map.copyOf(datastores);
        hosts = hosts == null ? Map.of() : Map.copyOf(hosts);
        vms = vms == null ? Map.of() : Map.copyOf(vms);
        disks = disks == null ? Map.of() : Map.copyOf(disks);
    }

    public String datastore(String id) {
        return datastores.getOrDefault(id, id);
    }

    public String host(String id) {
        return id == null ? null : hosts.getOrDefault(id, id);
    }

    public String vm(String id) {
        return vms.getOrDefault(id, id);
    }

    /** "disk 2000 of VM db", or "disk " and the id when the disk has no name. */
    public String disk(String id) {
        String phrase = disks.get(id);
        return phrase != null ? phrase : "disk " + id;
    }
}
