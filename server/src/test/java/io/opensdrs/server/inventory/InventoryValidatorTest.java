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

    @Test
    void aSwapFileApartFromTheHomeNamesItsDatastoreAndASize() {
        InventorySnapshot.VmInfo v = vm(4096, 40L << 30);
        java.util.function.BiFunction<String, Long, InventorySnapshot.VmInfo> swap = (ds, bytes) -> new InventorySnapshot.VmInfo(
                v.moid(), v.name(), v.hostMoid(), v.disks(), v.homeDatastoreMoid(), v.homeBytes(), ds, bytes);
        assertThat(check(swap.apply("datastore-9", 2L << 30))).as("on the host's swap datastore").isEmpty();
        assertThat(check(swap.apply(" ", 2L << 30))).contains("vms[0].swapDatastoreMoid must be a datastore moid of 1 to 64 characters,"
                + " or absent when the swap file is in the home");
        assertThat(check(swap.apply("d".repeat(65), 2L << 30))).get().asString().startsWith("vms[0].swapDatastoreMoid");
        assertThat(check(swap.apply("datastore-9", -1L))).contains("vms[0].swapBytes must be >= 0");
    }
}
