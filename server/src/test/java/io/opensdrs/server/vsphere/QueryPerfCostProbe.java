package io.opensdrs.server.vsphere;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.migration.FaithfulVcsim;
import io.opensdrs.server.vsphere.object.Vim25VSphereClient;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.*;

/**
 * The client's CPU time of one QueryPerf call of 250 VMs × 3 disks × 15 counters in the csv format
 * (one batch of the server's read of vCenter's counters), against our vcsim; the simulator's own time
 * is in the wall time only. Not part of the suite: run it with
 * {@code ./mvnw -B -pl server test -Dtest=QueryPerfCostProbe -Dsdrs.probe.queryperf=true} (B4v, server README);
 * with {@code -Dprobe.vms=3000 -Dprobe.batch=250} it also times a read of every VM in calls of 250, one at a time
 * against {@code probe.inflight} (2) at once ({@link #inFlight}).
 */
@org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "sdrs.probe.queryperf", matches = "true")
class QueryPerfCostProbe {
    static final List<String> NAMES = List.of("virtualDisk.numberReadAveraged.average", "virtualDisk.numberWriteAveraged.average",
            "virtualDisk.totalReadLatency.average", "virtualDisk.totalWriteLatency.average", "virtualDisk.readLatencyUS.latest",
            "virtualDisk.writeLatencyUS.latest", "virtualDisk.readOIO.latest", "virtualDisk.writeOIO.latest",
            "virtualDisk.read.average", "virtualDisk.write.average", "virtualDisk.readIOSize.latest",
            "virtualDisk.writeIOSize.latest", "virtualDisk.smallSeeks.latest", "virtualDisk.mediumSeeks.latest",
            "virtualDisk.largeSeeks.latest");

    @Test
    void probe() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, Object> inv = new LinkedHashMap<>();
        inv.put("datacenter", "DC0");
        inv.put("storagePods", List.of(Map.of("name", "POD0", "datastores", List.of(Map.of("name", "ds1", "capacityGB", 20000)))));
        inv.put("hosts", List.of(Map.of("name", "h1", "cluster", "C0", "datastores", List.of("ds1"))));
        List<Object> vms = new ArrayList<>();
        int n = Integer.getInteger("probe.vms", 250);
        for (int i = 0; i < n; i++) {
            List<Object> disks = new ArrayList<>();
            for (int k = 0; k < 3; k++) disks.add(Map.of("name", "d" + k, "sizeGB", 1, "datastore", "ds1"));
            vms.add(Map.of("name", "vm" + i, "host", "h1", "powerOn", true, "disks", disks));
        }
        inv.put("vms", vms);
        try (VcsimProcess vcsim = FaithfulVcsim.start(json.writeValueAsString(inv), "probe")) {
            Random r = new Random(1);
            List<Object> pvms = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                List<Object> disks = new ArrayList<>();
                for (int k = 0; k < 3; k++) {
                    Map<String, Long> c = new LinkedHashMap<>();
                    for (String name : NAMES) c.put(name, (long) r.nextInt(100000));
                    disks.add(Map.of("instance", "scsi0:" + k, "counters", c));
                }
                pvms.add(Map.of("vm", "vm" + i, "disks", disks));
            }
            String body = json.writeValueAsString(Map.of("timestamp", Instant.parse("2026-11-27T10:00:20Z").toString(),
                    "interval", 20, "vms", pvms, "hosts", List.of()));
            SSLContext trustAll = SSLContext.getInstance("TLS");
            trustAll.init(null, new TrustManager[] {new X509TrustManager() {
                public void checkClientTrusted(X509Certificate[] c, String a) { }
                public void checkServerTrusted(X509Certificate[] c, String a) { }
                public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
            }}, null);
            HttpResponse<String> resp = HttpClient.newBuilder().sslContext(trustAll).build().send(HttpRequest.newBuilder(
                    vcsim.sdkUrl().resolve("/opensdrs/perf")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            System.out.println("publish " + resp.statusCode() + " " + resp.body());
            try (Vim25VSphereClient client = Vim25VSphereClient.login(vcsim.insecureConnection())) {
                Map<String, Integer> keys = new HashMap<>();
                for (PerfCounter c : client.perfCounters()) keys.put(c.name(), c.key());
                List<Integer> ck = NAMES.stream().map(keys::get).toList();
                List<PerfQuery> qs = new ArrayList<>();
                for (InventorySnapshot.Vm vm : client.inventory().vms()) qs.add(new PerfQuery("VirtualMachine", vm.id(), ck, null, 15));
                var mx = ManagementFactory.getThreadMXBean();
                int rounds = Integer.getInteger("probe.rounds", 40);
                for (int round = 0; round < 2; round++) {
                    long cpu = 0, wall = 0; int series = 0;
                    for (int i = 0; i < rounds; i++) {
                        long c0 = mx.getCurrentThreadCpuTime(), w0 = System.nanoTime();
                        List<PerfSamples> a = client.queryPerf(qs);
                        cpu += mx.getCurrentThreadCpuTime() - c0; wall += System.nanoTime() - w0;
                        series = a.stream().mapToInt(s -> s.series().size()).sum();
                    }
                    System.out.printf("PROBE %s: %d VMs, %d series per call; client CPU %.1f ms/call, wall %.1f ms/call%n",
                            round == 0 ? "warm-up" : "measured", qs.size(), series, cpu / 1e6 / rounds, wall / 1e6 / rounds);
                }
                int batch = Integer.getInteger("probe.batch", 0);
                if (batch > 0) {
                    inFlight(client, qs, batch, Integer.getInteger("probe.inflight", 2), Integer.getInteger("probe.reads", 10));
                }
            }
        }
    }

    /**
     * The read's shape: {@code qs} in calls of {@code batch}, one call at a time against {@code inFlight} at
     * once, alternated round by round so that the load of whatever else runs on the machine falls on both.
     */
    static void inFlight(Vim25VSphereClient client, List<PerfQuery> qs, int batch, int inFlight, int rounds) throws Exception {
        List<List<PerfQuery>> calls = new ArrayList<>();
        for (int i = 0; i < qs.size(); i += batch) calls.add(qs.subList(i, Math.min(qs.size(), i + batch)));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(inFlight);
        try {
            double[] one = new double[rounds], many = new double[rounds];
            for (int round = -1; round < rounds; round++) { // round -1: warm-up of both
                for (int mode = 0; mode < 2; mode++) {
                    long w0 = System.nanoTime();
                    if (mode == 0) {
                        for (List<PerfQuery> c : calls) client.queryPerf(c);
                    } else {
                        List<java.util.concurrent.Future<List<PerfSamples>>> f = new ArrayList<>();
                        for (List<PerfQuery> c : calls) f.add(pool.submit(() -> client.queryPerf(c)));
                        for (var x : f) x.get();
                    }
                    double s = (System.nanoTime() - w0) / 1e9;
                    if (round >= 0) (mode == 0 ? one : many)[round] = s;
                }
                if (round >= 0) {
                    System.out.printf(Locale.ROOT, "PROBE read %d: %d calls of %d; one at a time %.2f s, %d in flight %.2f s%n",
                            round, calls.size(), batch, one[round], inFlight, many[round]);
                }
            }
            Arrays.sort(one);
            Arrays.sort(many);
            System.out.printf(Locale.ROOT, "PROBE median of %d reads: one at a time %.2f s, %d in flight %.2f s%n",
                    rounds, one[rounds / 2], inFlight, many[rounds / 2]);
        } finally {
            pool.shutdownNow();
        }
    }
}
