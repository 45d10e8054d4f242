package io.opensdrs.server.rules;

import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.problems.InvalidFieldException;
import io.opensdrs.server.balancing.ClusterStateAssembler;
import io.opensdrs.server.inventory.InventoryRepository;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.vcenter.VCenterProperties;
import io.opensdrs.server.vcenter.VCenterRefusedException;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A datastore cluster's Storage DRS rules (SPEC §4) created and removed from this server's API —
 * the plugin's Rules page — but kept where vCenter keeps them, in the pod's Storage DRS
 * configuration (ConfigureStorageDrsForPod_Task), as the vSphere Client's own "VM/Host Rules" do:
 * VM anti-affinity rules (no two of the VMs on one datastore) in the pod's rules, a VM's VMDK
 * anti-affinity rule (each listed disk on a datastore of its own) in the VM's own settings. This
 * server stores nothing of its own: the inventory sync reads the rule back, and it reaches the
 * balancing engine and the migration applier from there. A request is checked against the
 * inventory before vCenter is asked, and a refusal changes nothing.
 */
@Component
public class PodRules {

    private static final Logger log = LoggerFactory.getLogger(PodRules.class);
    /** vCenter's own limit on a rule's name is far longer; this one keeps names readable in the plugin. */
    public static final int MAX_NAME = 80;

    private final InventoryRepository inventory;
    private final ClusterStateAssembler assembler;
    private final InventorySync sync;
    private final ObjectProvider<VSphereClient> clients;
    private final Duration timeout;

    public PodRules(InventoryRepository inventory, ClusterStateAssembler assembler, InventorySync sync,
                    ObjectProvider<VSphereClient> clients, VCenterProperties vcenter) {
        this.inventory = inventory;
        this.assembler = assembler;
        this.sync = sync;
        this.clients = clients;
        this.timeout = vcenter.getTimeout();
    }

    /** Creates a VM anti-affinity rule in vCenter, then brings the stored inventory up to date. */
    public void createVmAntiAffinity(String podId, String name, List<String> vmIds) {
        String trimmed = ruleName(name);
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
            if (disksInCluster(podId, vm).isEmpty()) {
                throw new InvalidFieldException("vmIds[" + i + "]", "VM " + vm + " has no disk in datastore cluster " + podId);
            }
        }
        change(podId, "name", "create VM anti-affinity rule " + trimmed + " over " + vmIds,
                client -> client.addVmAntiAffinityRule(podId, trimmed, vmIds));
    }

    /** Removes a VM anti-affinity rule from vCenter, then brings the stored inventory up to date. */
    public void removeVmAntiAffinity(String podId, String name) {
        change(podId, "ruleId", "remove VM anti-affinity rule " + name, client -> client.removeVmAntiAffinityRule(podId, name));
    }

    /**
     * Gives a VM of the cluster a VMDK anti-affinity rule over two or more of its disks in the
     * cluster, in vCenter, then brings the stored inventory up to date. A VM holds one such rule.
     */
    public void createVmdkAntiAffinity(String podId, String name, String vmId, List<Integer> diskKeys) {
        String trimmed = ruleName(name);
        if (vmId == null) {
            throw new InvalidFieldException("vmId", "a VMDK anti-affinity rule names its VM");
        }
        Set<Integer> disksHere = disksInCluster(podId, vmId);
        if (disksHere.isEmpty()) {
            throw new InvalidFieldException("vmId", "VM " + vmId + " has no disk in datastore cluster " + podId);
        }
        assembler.storageDrsRules(podId).vms().stream()
                .filter(v -> v.vmId().equals(vmId) && v.vmdkAntiAffinity() != null).findFirst()
                .ifPresent(v -> {
                    throw new InvalidFieldException("vmId", "VM " + vmId + " already has VMDK anti-affinity rule "
                            + v.vmdkAntiAffinity().name() + "; remove it first");
                });
        if (diskKeys == null || diskKeys.size() < 2) {
            throw new InvalidFieldException("diskKeys", "a VMDK anti-affinity rule needs at least two of the VM's disks");
        }
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < diskKeys.size(); i++) {
            Integer key = diskKeys.get(i);
            if (!disksHere.contains(key)) {
                throw new InvalidFieldException("diskKeys[" + i + "]", "VM " + vmId + " has no disk " + key
                        + " in datastore cluster " + podId);
            }
            if (!seen.add(key)) {
                throw new InvalidFieldException("diskKeys[" + i + "]", "disk " + key + " appears twice");
            }
        }
        change(podId, "name", "create VMDK anti-affinity rule " + trimmed + " over disks " + diskKeys + " of " + vmId,
                client -> client.addVmdkAntiAffinityRule(podId, vmId, trimmed, diskKeys));
    }

    /** Removes the VM's VMDK anti-affinity rule from vCenter, keeping its other settings there. */
    public void removeVmdkAntiAffinity(String podId, String vmId) {
        change(podId, "ruleId", "remove the VMDK anti-affinity rule of " + vmId, client -> client.removeVmdkAntiAffinityRule(podId, vmId));
    }

    /**
     * Sets the VM's own "Keep VMDKs together" in vCenter, or with null lets it follow the cluster's
     * default again. A VM with a VMDK anti-affinity rule keeps those disks apart, so it can only be false.
     */
    public void setVmKeepTogether(String podId, String vmId, Boolean keepTogether) {
        if (vmId == null) {
            throw new InvalidFieldException("vmId", "a keep-together setting names its VM");
        }
        if (disksInCluster(podId, vmId).isEmpty()) {
            throw new InvalidFieldException("vmId", "VM " + vmId + " has no disk in datastore cluster " + podId);
        }
        assembler.storageDrsRules(podId).vms().stream()
                .filter(v -> v.vmId().equals(vmId) && v.vmdkAntiAffinity() != null && !Boolean.FALSE.equals(keepTogether)).findFirst()
                .ifPresent(v -> {
                    throw new InvalidFieldException("vmId", "VM " + vmId + " keeps its disks apart by VMDK anti-affinity rule "
                            + v.vmdkAntiAffinity().name() + "; remove the rule first");
                });
        change(podId, "vmId", (keepTogether == null ? "let " + vmId + " follow the cluster's keep-together default"
                        : "set keep VMDKs together of " + vmId + " to " + keepTogether),
                client -> client.configureVmKeepVmdksTogether(podId, vmId, keepTogether));
    }

    /** Starts one ConfigureStorageDrsForPod_Task and returns its task id. */
    @FunctionalInterface
    private interface PodChange {
        String start(VSphereClient client) throws VimFaultException;
    }

    /**
     * Runs the change in vCenter to its end, then brings the stored inventory up to date. vCenter
     * failing the call or the task, or not finishing within the vCenter timeout, is answered 502 naming {@code field}.
     */
    private void change(String podId, String field, String what, PodChange call) {
        VSphereClient client = requireClient(field);
        try {
            client.completeTask(call.start(client), timeout);
        } catch (VimFaultException e) {
            throw new VCenterRefusedException(field, "vCenter did not " + what + ": " + e.getMessage());
        }
        log.info("{}: {} done in vCenter", podId, what);
        refresh(client, podId);
    }

    /** The keys of the VM's disks on the cluster's datastores, as last synced. */
    private Set<Integer> disksInCluster(String podId, String vmId) {
        return inventory.diskKeysIn(vmId, podId);
    }

    private static String ruleName(String name) {
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.isEmpty() || trimmed.length() > MAX_NAME) {
            throw new InvalidFieldException("name", "must be 1 to " + MAX_NAME + " characters");
        }
        // checked before it reaches vCenter, whose answer to a control character is a SOAP fault, not a reason
        if (!trimmed.matches(ApiIds.NAME)) {
            throw new InvalidFieldException("name", ApiIds.NAME_MESSAGE);
        }
        return trimmed;
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
