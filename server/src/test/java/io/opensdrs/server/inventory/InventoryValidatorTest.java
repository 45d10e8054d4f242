package io.opensdrs.server.inventory;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class InventoryValidatorTest {

    private static InventorySnapshot.VmInfo vm(long homeBytes, long diskBytes) {
        return new InventorySnapshot.VmInfo("vm-1", "web", "host-1", List.of(
                new InventorySnapshot.VirtualDiskInfo(2000, "[ds-a] web/web.vmdk", diskBytes, "datastore-1")), "datastore-1", homeBytes);
    }

    private static Optional<String> check(InventorySnapshot.VmInfo vm) {
        return InventoryValidator.check(List.of(), List.of(), List.of(), List.of(), List.of(vm));
    }

    @Test
    void aVmReadAsVCenterGivesItPasses() {
        assertThat(check(vm(4L << 30, 40L << 30))).isEmpty();
        assertThat(check(vm(0, 0))).as("a home not read yet, an empty disk").isEmpty();
    }

    @Test
    void aNegativeSizeIsRefusedNamingTheField() {
        assertThat(check(vm(-1, 40L << 30))).contains("vms[0].homeBytes must be >= 0");
        assertThat(check(vm(0, -1))).contains("vms[0].disks[0].sizeBytes must be >= 0");
    }
}
