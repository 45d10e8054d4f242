package io.opensdrs.loop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.opensdrs.shared.vscsi.v1.DiskRequest;
import io.opensdrs.shared.vscsi.v1.RelocateRequest;
import io.opensdrs.shared.vscsi.v1.RelocationStatus;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;
import io.opensdrs.testbed.vcenter.VcsimAdmin;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The testbed follows vCenter: when the server's migration applier has a storage vMotion
 * running (an action RUNNING in {@code GET /api/v1/migrations}), the testbed starts the same
 * copy for each of its disks (vSCSI {@code Relocate}: 16 outstanding IOs on source and
 * destination, Pesto §5.4.1), and when the copy is done the disk's IO goes to the destination's
 * device. Without this bridge vCenter would move files while the emulated IO stayed put.
 *
 * <p>A storage vMotion can also finish without ever being seen RUNNING here — the server killed
 * mid-migration finds the vCenter task done on restart and records it applied. So the follower
 * also watches where vCenter has each disk (the server's inventory, synced from vCenter): when a
 * disk's datastore there changes and the testbed neither has it there nor is copying it there,
 * the testbed starts the copy then.
 *
 * <p>On a real vSphere the task completes, and the disk's backing changes, when the copy is done,
 * and the copy's length is the storage's. Here the storage is the testbed, so our vcsim runs with
 * {@code -relocate-hold}: a relocation waits at the end of its simulated copy until this follower
 * tells it ({@code POST /opensdrs/relocations}) that the testbed's copies for that task are done.
 * Without it vCenter would report disks on their destination while the testbed still served
 * their IO, and copied them, on the source, and the server would file those windows under the
 * destination.
 */
public final class PlacementFollower implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One disk the testbed was told to move. */
    public record Move(long actionId, long recommendationId, String taskId, String vm, int diskKey, String from, String to,
                       long startedAtMs) {
    }

    private final ServerApi api;
    private final VScsiGrpc.VScsiBlockingStub vscsi;
    private final Consumer<String> progress;
    private final Set<Long> followedActions = new HashSet<>();
    /** vCenter tasks whose action this follower has followed (its copies started, or none needed). */
    private final Set<String> followedTasks = new HashSet<>();
    private final VcsimAdmin vcsim;
    private final List<Move> moves = new CopyOnWriteArrayList<>();
    private final Map<String, String> vmNames = new HashMap<>();
    private final Map<String, List<Integer>> vmDisks = new HashMap<>();
    /** (VM id, vCenter's disk key) → the testbed's key (2000 + the disk's position in the scenario VM). */
    private final Map<String, Integer> testbedKeys = new HashMap<>();
    private final io.opensdrs.scenario.Scenario scenario;
    private final Map<String, String> datastoreNames = new HashMap<>();
    /** (VM id, vCenter's disk key) → the disk's datastore as last seen in the server's inventory. */
    private final Map<String, String> inventoryPlacement = new HashMap<>();
    private final Thread thread;
    private volatile boolean stopping;
    private volatile String lastError;

    PlacementFollower(io.opensdrs.scenario.Scenario scenario, ServerApi api, ManagedChannel vscsi, VcsimAdmin vcsim,
                      Consumer<String> progress) {
        this.scenario = scenario;
        this.vcsim = vcsim;
        this.api = api;
        this.vscsi = VScsiGrpc.newBlockingStub(vscsi);
        this.progress = progress;
        this.thread = new Thread(this::loop, "placement-follower");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Every disk the testbed was told to move, in order. */
    public List<Move> moves() {
        return List.copyOf(moves);
    }

    /** The scenario's name of a VM's disk by its testbed key (2000 + its position), or "2001" when it has none. */
    public String diskName(String vm, int testbedKey) {
        return scenario.vms().stream().filter(v -> v.name().equals(vm)).findFirst()
                .filter(v -> testbedKey - 2000 >= 0 && testbedKey - 2000 < v.disks().size())
                .map(v -> v.disks().get(testbedKey - 2000).name()).orElse(Integer.toString(testbedKey));
    }

    /** The last error talking to the server (it may be down on purpose), or null. */
    public String lastError() {
        return lastError;
    }

    /** Where the testbed sends the disk's IO now, and whether its copy is done. */
    public RelocationStatus status(String vm, int diskKey) {
        return vscsi.relocationProgress(DiskRequest.newBuilder().setVm(vm).setDiskKey(diskKey).build());
    }

    private void loop() {
        while (!stopping) {
            try {
                poll();
                lastError = null;
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                lastError = e.toString(); // the server restarting, or cut off: try again
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void poll() throws Exception {
        JsonNode migrations = api.get("/api/v1/migrations");
        for (JsonNode a : migrations.path("inFlight")) {
            String state = a.path("state").asText();
            long id = a.path("id").asLong();
            if (!(state.equals("RUNNING") || state.equals("VERIFYING")) || followedActions.contains(id)) {
                continue;
            }
            follow(id, a);
        }
        releaseCopied();
        followInventory();
    }

    /** Lets vCenter complete each held relocation whose testbed copies are all done. */
    private void releaseCopied() throws Exception {
        HttpResponse<String> held = vcsim.get("/opensdrs/relocations");
        if (held.statusCode() != 200) {
            throw new IllegalStateException("vcsim GET /opensdrs/relocations: " + held.statusCode() + " " + held.body());
        }
        for (JsonNode h : JSON.readTree(held.body())) {
            String task = h.path("task").asText();
            if (!followedTasks.contains(task)) {
                continue; // its action not seen yet: the copy has not started here
            }
            boolean copied = true;
            for (Move m : moves) {
                if (task.equals(m.taskId()) && !status(m.vm(), m.diskKey()).getDone()) {
                    copied = false;
                }
            }
            if (copied) {
                HttpResponse<String> r = vcsim.post("/opensdrs/relocations", "application/x-www-form-urlencoded",
                        "task=" + URLEncoder.encode(task, StandardCharsets.UTF_8));
                if (r.statusCode() != 200 && r.statusCode() != 404) { // 404: its hold ran out meanwhile
                    throw new IllegalStateException("vcsim POST /opensdrs/relocations task=" + task + ": " + r.statusCode() + " " + r.body());
                }
            }
        }
    }

    /** Starts the testbed copy of a disk whose datastore in vCenter changed while no RUNNING action was seen. */
    private void followInventory() throws Exception {
        for (JsonNode d : api.get("/api/v1/disks")) {
            String vmId = d.path("vm").asText();
            String key = vmId + "#" + d.path("diskKey").asInt();
            String ds = d.path("datastore").asText(null);
            String before = ds == null ? null : inventoryPlacement.put(key, ds);
            if (before == null || before.equals(ds)) {
                continue;
            }
            if (!testbedKeys.containsKey(key)) {
                refreshNames();
            }
            Integer testbedKey = testbedKeys.get(key);
            String vm = vmNames.get(vmId);
            if (testbedKey == null || vm == null) {
                continue; // a disk the scenario does not have (made in vCenter by hand)
            }
            RelocationStatus now = status(vm, testbedKey);
            if (now.getDatastoreNow().equals(ds) || now.getDestination().equals(ds)) {
                continue; // followed already (its action was seen RUNNING)
            }
            RelocationStatus r = vscsi.relocate(RelocateRequest.newBuilder().setVm(vm).setDiskKey(testbedKey)
                    .setDestination(ds).build());
            if (!r.getAccepted()) {
                progress.accept("  testbed refused to move " + vm + " disk " + testbedKey + " to " + ds + ": " + r.getReason());
                continue;
            }
            moves.add(new Move(-1, -1, null, vm, testbedKey, now.getDatastoreNow(), ds, System.currentTimeMillis()));
            progress.accept(String.format("  storage vMotion seen done in vCenter: disk %s of %s  %s -> %s (testbed copy started)",
                    diskName(vm, testbedKey), vm, now.getDatastoreNow(), ds));
        }
    }

    private void follow(long actionId, JsonNode a) throws Exception {
        String vmId = a.path("vmId").asText();
        String destId = a.path("destinationDatastoreId").asText();
        if (!vmNames.containsKey(vmId) || !datastoreNames.containsKey(destId)) {
            refreshNames();
        }
        String vm = vmNames.get(vmId);
        String dest = datastoreNames.get(destId);
        if (vm == null || dest == null) {
            throw new IllegalStateException("action " + actionId + ": unknown VM " + vmId + " or datastore " + destId);
        }
        List<Integer> keys = new ArrayList<>();
        a.path("diskKeys").forEach(k -> keys.add(k.asInt()));
        if (a.path("homeOnly").asBoolean()) {
            // the VM's home alone (its configuration files): no disk, so no IO moves in the testbed
            followedActions.add(actionId);
            followedTasks.add(a.path("taskId").asText());
            followedTasks.add(a.path("taskId").asText());
            progress.accept(String.format("  storage vMotion started: %s home -> %s (vCenter task %s; no disk moves)", vm, dest,
                    a.path("taskId").asText()));
            return;
        }
        if (keys.isEmpty()) {
            keys.addAll(vmDisks.getOrDefault(vmId, List.of())); // the whole VM
        }
        followedActions.add(actionId);
        followedTasks.add(a.path("taskId").asText());
        for (int vcKey : keys) {
            Integer key = testbedKeys.get(vmId + "#" + vcKey);
            if (key == null) {
                throw new IllegalStateException("action " + actionId + ": no testbed disk for " + vm + " disk " + vcKey);
            }
            RelocationStatus now = status(vm, key);
            if (now.getDatastoreNow().equals(dest)) {
                continue;
            }
            RelocationStatus r = vscsi.relocate(RelocateRequest.newBuilder().setVm(vm).setDiskKey(key)
                    .setDestination(dest).build());
            if (!r.getAccepted()) {
                progress.accept("  testbed refused to move " + vm + " disk " + key + " to " + dest + ": " + r.getReason());
                continue;
            }
            Move m = new Move(actionId, a.path("recommendationId").asLong(-1), a.path("taskId").asText(null), vm, key, now.getDatastoreNow(), dest,
                    System.currentTimeMillis());
            moves.add(m);
            progress.accept(String.format("  storage vMotion started: disk %s of %s  %s -> %s (vCenter task %s)", diskName(vm, key),
                    vm, m.from(), dest, a.path("taskId").asText()));
        }
    }

    private void refreshNames() throws Exception {
        for (JsonNode d : api.get("/api/v1/disks")) {
            String vm = d.path("vm").asText();
            String vmName = d.path("vmName").asText();
            vmNames.put(vm, vmName);
            // "[ds] vm/data.vmdk" (or "data_1.vmdk" after a name clash) names the scenario's disk "data"
            String file = d.path("file").asText();
            String base = file.substring(file.lastIndexOf('/') + 1).replaceFirst("(_\\d+)?\\.vmdk$", "");
            scenario.vms().stream().filter(v -> v.name().equals(vmName)).findFirst().ifPresent(v -> {
                for (int i = 0; i < v.disks().size(); i++) {
                    if (v.disks().get(i).name().equals(base)) {
                        testbedKeys.put(vm + "#" + d.path("diskKey").asInt(), 2000 + i);
                    }
                }
            });
            List<Integer> keys = vmDisks.computeIfAbsent(vm, k -> new ArrayList<>());
            if (!keys.contains(d.path("diskKey").asInt())) {
                keys.add(d.path("diskKey").asInt());
            }
        }
        for (JsonNode ds : api.get("/api/v1/datastores")) {
            datastoreNames.put(ds.path("id").asText(), ds.path("name").asText());
        }
    }

    @Override
    public void close() {
        stopping = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
