package io.opensdrs.server.rules;

import io.opensdrs.server.api.InvalidFieldException;
import io.opensdrs.server.balancing.ClusterStateAssembler;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.vcenter.VCenterProperties;
import io.opensdrs.server.vcenter.VCenterRefusedException;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * VM anti-affinity rules of a datastore cluster (SPEC §4: no two of the VMs on one datastore),
 * created and removed from this server's API — the plugin's Rules page — but kept where vCenter
 * keeps them, in the pod's Storage DRS configuration (ConfigureStorageDrsForPod_Task), as the
 * vSphere Client's own "VM/Host Rules" do. This server stores nothing of its own: the inventory
 * sync reads the rule back, and it reaches the balancing engine and the migration applier from there.
 * A request is checked against the inventory before vCenter is asked, and a refusal changes nothing.
 */
@Component
public class VmAntiAffinityRules {

    private static final Logger log = LoggerFactory.getLogger(VmAntiAffinityRules.class);
    /** vCenter's own limit on a rule's name is far longer; this one keeps names readable in the plugin. */
    public static final int MAX_NAME = 80;

    private final JdbcTemplate jdbc;
    private final ClusterStateAssembler assembler;
    private final InventorySync sync;
    private final ObjectProvider<VSphereClient> clients;
    private final Duration timeout;

    public VmAntiAffinityRules(JdbcTemplate jdbc, ClusterStateAssembler assembler, InventorySync sync,
                               ObjectProvider<VSphereClient> clients, VCenterProperties vcenter) {
        this.jdbc = jdbc;
        this.assembler = assembler;
        this.sync = sync;
        this.clients = clients;
        this.timeout = vcenter.getTimeout();
    }

    /** Creates the rule in vCenter, then brings the stored inventory up to date. */
    public void create(String podId, String name, List<String> vmIds) {
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.isEmpty() || trimmed.length() > MAX_NAME) {
            throw new InvalidFieldException("name", "must be 1 to " + MAX_NAME + " characters");
        }
        StorageDrsRules held = assembler.storageDrsRules(podId);
        if (held.vmAntiAffinity().stream().anyMatch(r -> r.name().equals(trimmed))) {
            throw new InvalidFieldException("name", "the datastore cluster already has a rule named " + trimmed);
        }
        if (vmIds == null || vmIds.size() < 2) {
            throw new InvalidFieldException("vmIds", "an anti-affinity rule needs at least two VMs");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < vmIds.size(); i++) {
            String vm = vmIds.get(i);
            if (!seen.add(vm)) {
                throw new InvalidFieldException("vmIds[" + i + "]", "VM " + vm + " appears twice");
            }
            Integer disksHere = jdbc.queryForObject("SELECT COUNT(*) FROM virtual_disk d JOIN datastore s ON s.moid = d.datastore_moid"
                    + " WHERE d.vm_moid = ? AND s.cluster_moid = ?", Integer.class, vm, podId);
            if (disksHere == null || disksHere == 0) {
                throw new InvalidFieldException("vmIds[" + i + "]", "VM " + vm + " has no disk in datastore cluster " + podId);
            }
        }
        VSphereClient client = requireClient("name");
        try {
            client.completeTask(client.addVmAntiAffinityRule(podId, trimmed, vmIds), timeout);
        } catch (VimFaultException e) {
            throw new VCenterRefusedException("name", "vCenter refused VM anti-affinity rule " + trimmed + ": " + e.getMessage());
        }
        log.info("{}: VM anti-affinity rule {} over {} created in vCenter", podId, trimmed, vmIds);
        refresh(client, podId);
    }

    /** Removes the rule from vCenter, then brings the stored inventory up to date. */
    public void remove(String podId, String name) {
        VSphereClient client = requireClient("ruleId");
        try {
            client.completeTask(client.removeVmAntiAffinityRule(podId, name), timeout);
        } catch (VimFaultException e) {
            throw new VCenterRefusedException("ruleId", "vCenter did not remove VM anti-affinity rule " + name + ": " + e.getMessage());
        }
        log.info("{}: VM anti-affinity rule {} removed in vCenter", podId, name);
        refresh(client, podId);
    }

    private VSphereClient requireClient(String field) {
        VSphereClient client = clients.getIfAvailable();
        if (client == null) {
            throw new VCenterRefusedException(field, "no vCenter is connected (sdrs.vcenter.url): rules are kept in vCenter");
        }
        return client;
    }

    /** vCenter holds the change; the next sync would bring it too, this makes the answer show it. */
    private void refresh(VSphereClient client, String podId) {
        try {
            sync.storeStorageDrsRules(podId, client.storageDrsRules(podId));
        } catch (VimFaultException | RuntimeException e) {
            log.warn("{}: reading the rules back after a change failed (the next inventory sync brings them): {}", podId, e.toString());
        }
    }
}
