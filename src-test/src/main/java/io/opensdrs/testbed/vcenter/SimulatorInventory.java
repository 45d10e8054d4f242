package io.opensdrs.testbed.vcenter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opensdrs.scenario.DatastoreClusterSpec;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A scenario's world as the inventory file of our vCenter simulator ({@code src-test/vcsim},
 * {@code -inventory FILE}; format in its README): datastore clusters become StoragePods, hosts
 * mount the datastores they see, VMs run on their hosts with their disks where the scenario
 * places them. The same names are used on both sides, so that the testbed and vCenter
 * describe one world and a relocation in vCenter can be followed by the testbed.
 */
public final class SimulatorInventory {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SimulatorInventory() {
    }

    public static ObjectNode of(Scenario world, String datacenter) {
        ObjectNode inv = JSON.createObjectNode();
        inv.put("datacenter", datacenter);
        Map<String, DatastoreSpec> byName = new HashMap<>();
        world.datastores().forEach(d -> byName.put(d.name(), d));

        ArrayNode pods = inv.putArray("storagePods");
        Map<String, Boolean> inPod = new HashMap<>();
        for (DatastoreClusterSpec c : world.datastoreClusters()) {
            ObjectNode pod = pods.addObject();
            pod.put("name", c.name());
            ArrayNode members = pod.putArray("datastores");
            for (String ds : c.datastores()) {
                members.add(datastore(byName.get(ds)));
                inPod.put(ds, true);
            }
        }
        ArrayNode loose = inv.putArray("datastores");
        for (DatastoreSpec d : world.datastores()) {
            if (!inPod.containsKey(d.name())) {
                loose.add(datastore(d));
            }
        }
        ArrayNode hosts = inv.putArray("hosts");
        for (HostSpec h : world.hosts()) {
            ObjectNode host = hosts.addObject();
            host.put("name", h.name());
            ArrayNode mounts = host.putArray("datastores");
            h.datastores().forEach(mounts::add);
        }
        ArrayNode vms = inv.putArray("vms");
        for (VmSpec v : world.vms()) {
            ObjectNode vm = vms.addObject();
            vm.put("name", v.name());
            vm.put("host", v.host());
            vm.put("powerOn", true);
            if (v.memoryMB() != null) {
                vm.put("memoryMB", v.memoryMB()); // its swap file, in its home, is as large
            }
            ArrayNode disks = vm.putArray("disks");
            for (DiskSpec d : v.disks()) {
                ObjectNode disk = disks.addObject();
                disk.put("name", d.name());
                disk.put("sizeGB", d.sizeGB());
                disk.put("datastore", d.datastore());
            }
        }
        return inv;
    }

    private static ObjectNode datastore(DatastoreSpec d) {
        ObjectNode ds = JSON.createObjectNode();
        ds.put("name", d.name());
        ds.put("capacityGB", d.capacityGB());
        return ds;
    }

    /** Writes the inventory file the simulator reads with {@code -inventory}. */
    public static Path write(Scenario world, String datacenter, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        JSON.writeValue(file.toFile(), of(world, datacenter));
        return file;
    }
}
