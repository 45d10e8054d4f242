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
 * (by vSphere or by an earlier action) can make it a violation now. As in the engine's
 * {@code RuleChecker}, the disks that land judge it: a move never creates a violation, and one the
 * inventory already has (a rule made over VMs already together) does not block a move that leaves
 * it as it is or mends it — the engine's {@code RuleRepair} recommends those. Keep-together is not
 * checked here: it is a property of the whole plan, which moves a kept-together VM as one unit.
 */
@Component
public class InventoryPlacementRules implements PlacementRules {

    @Override
    public Optional<String> violation(InventorySnapshot inventory, MigrationAction action) {
        Optional<InventorySnapshot.Vm> vm = inventory.vm(action.vmId());
        if (vm.isEmpty()) {
            return Optional.empty(); // the preconditions report a vanished VM themselves
        }
        String destination = action.destinationDatastore();
        Map<Integer, String> after = new HashMap<>();
        Set<Integer> landing = new HashSet<>();
        for (InventorySnapshot.VirtualDisk d : vm.get().disks()) {
            boolean moves = action.wholeVm() || action.diskKeys().contains(d.key());
            after.put(d.key(), moves ? destination : d.datastoreId());
            if (moves && !d.datastoreId().equals(destination)) {
                landing.add(d.key());
            }
        }
        if (landing.isEmpty()) {
            return Optional.empty();
        }
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
                    if (other.get().disks().stream().anyMatch(d -> d.datastoreId().equals(destination))) {
                        return Optional.of("VM anti-affinity rule " + r.name() + ": VM " + vm.get().name() + " would share datastore "
                                + inventory.datastoreName(destination) + " with VM " + other.get().name());
                    }
                }
            }
            for (StorageDrsRules.VmRules v : rules.vms()) {
                StorageDrsRules.VmdkAntiAffinity a = v.vmdkAntiAffinity();
                if (!v.vmId().equals(action.vmId()) || a == null || !a.enabled()) {
                    continue;
                }
                for (int key : a.diskKeys()) {
                    if (!landing.contains(key)) {
                        continue;
                    }
                    for (int otherKey : a.diskKeys()) {
                        if (otherKey != key && destination.equals(after.get(otherKey))) {
                            return Optional.of("VMDK anti-affinity rule " + a.name() + ": disks " + Math.min(key, otherKey) + " and "
                                    + Math.max(key, otherKey) + " of VM " + vm.get().name() + " would share datastore "
                                    + inventory.datastoreName(destination));
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }
}
