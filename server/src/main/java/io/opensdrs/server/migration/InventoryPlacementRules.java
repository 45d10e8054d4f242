package io.opensdrs.server.migration;

import io.opensdrs.server.vsphere.InventorySnapshot;
import io.opensdrs.server.vsphere.StorageDrsRules;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The anti-affinity rules vCenter holds when an action is about to be issued (SPEC §4): a
 * recommendation was planned against the rules of its run, but a rule added or a VM moved since
 * (by vSphere or by an earlier action) can make it a violation now. Keep-together is not checked
 * here: it is a property of the whole plan, which moves a kept-together VM as one unit.
 */
@Component
public class InventoryPlacementRules implements PlacementRules {

    @Override
    public Optional<String> violation(InventorySnapshot inventory, MigrationAction action) {
        Optional<InventorySnapshot.Vm> vm = inventory.vm(action.vmId());
        if (vm.isEmpty()) {
            return Optional.empty(); // the preconditions report a vanished VM themselves
        }
        Map<Integer, String> after = new HashMap<>();
        for (InventorySnapshot.VirtualDisk d : vm.get().disks()) {
            boolean moves = action.wholeVm() || action.diskKeys().contains(d.key());
            after.put(d.key(), moves ? action.destinationDatastore() : d.datastoreId());
        }
        Set<String> vmAfter = new HashSet<>(after.values());
        for (InventorySnapshot.StoragePod pod : inventory.storagePods()) {
            StorageDrsRules rules = pod.rules();
            for (StorageDrsRules.VmAntiAffinity r : rules.vmAntiAffinity()) {
                if (!r.enabled() || !r.vmIds().contains(action.vmId())) {
                    continue;
                }
                for (String otherId : r.vmIds()) {
                    Optional<InventorySnapshot.Vm> other = inventory.vm(otherId);
                    if (otherId.equals(action.vmId()) || other.isEmpty()) {
                        continue;
                    }
                    for (InventorySnapshot.VirtualDisk d : other.get().disks()) {
                        if (vmAfter.contains(d.datastoreId())) {
                            return Optional.of("VM anti-affinity rule " + r.name() + ": VM " + vm.get().name() + " would share datastore "
                                    + inventory.datastoreName(d.datastoreId()) + " with VM " + other.get().name());
                        }
                    }
                }
            }
            for (StorageDrsRules.VmRules v : rules.vms()) {
                StorageDrsRules.VmdkAntiAffinity a = v.vmdkAntiAffinity();
                if (!v.vmId().equals(action.vmId()) || a == null || !a.enabled()) {
                    continue;
                }
                Map<String, Integer> firstOn = new HashMap<>();
                for (int key : a.diskKeys()) {
                    String ds = after.get(key);
                    if (ds == null) {
                        continue;
                    }
                    Integer clash = firstOn.putIfAbsent(ds, key);
                    if (clash != null) {
                        return Optional.of("VMDK anti-affinity rule " + a.name() + ": disks " + clash + " and " + key + " of VM "
                                + vm.get().name() + " would share datastore " + inventory.datastoreName(ds));
                    }
                }
            }
        }
        return Optional.empty();
    }
}
