package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.VirtualMachineTypes.DiskLocator;
import io.opensdrs.server.vsphere.vim25.VirtualMachineTypes.VirtualMachineRelocateSpec;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The RelocateVM_Task specs: what moves is what has a destination, and nothing else. */
class VirtualMachineTest {

    private static Map<Integer, String> locators(VirtualMachineRelocateSpec spec) {
        Map<Integer, String> m = new TreeMap<>();
        for (DiskLocator d : spec.disk) {
            assertThat(d.datastore.type()).isEqualTo("Datastore");
            m.put(d.diskId, d.datastore.value());
        }
        return m;
    }

    @Test
    void disksMoveAloneTheHomeHasNoDestination() {
        VirtualMachineRelocateSpec spec = VirtualMachine.disks(Map.of(2000, "datastore-2", 2001, "datastore-3"));
        assertThat(spec.datastore).as("the home stays").isNull();
        assertThat(spec.host).isNull();
        assertThat(spec.pool).isNull();
        assertThat(locators(spec)).containsExactly(Map.entry(2000, "datastore-2"), Map.entry(2001, "datastore-3"));
    }

    @Test
    void aRelocationOfNoDiskIsRefusedNamingTheField() {
        assertThatThrownBy(() -> VirtualMachine.disks(Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("diskToDatastore");
    }

    @Test
    void aWholeVmMovesToOneDatastoreWithoutLocators() {
        VirtualMachineRelocateSpec spec = VirtualMachine.wholeVm("datastore-7");
        assertThat(spec.datastore).isEqualTo(new ManagedObjectReference("Datastore", "datastore-7"));
        assertThat(spec.disk).as("every disk follows the home").isEmpty();
    }

    @Test
    void theHomeMovesAndEveryDiskIsPinnedWhereItIs() {
        VirtualMachineRelocateSpec spec = VirtualMachine.home("datastore-7", Map.of(2000, "datastore-2", 2001, "datastore-2"));
        assertThat(spec.datastore).isEqualTo(new ManagedObjectReference("Datastore", "datastore-7"));
        assertThat(locators(spec)).containsExactly(Map.entry(2000, "datastore-2"), Map.entry(2001, "datastore-2"));
    }
}
