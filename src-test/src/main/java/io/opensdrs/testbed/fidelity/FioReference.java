package io.opensdrs.testbed.fidelity;

import io.opensdrs.testbed.device.DeviceProfiles;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * fio-plot's measurements of the four real devices the profiles are calibrated to
 * (resource {@code fio-plot/fio-runs-calibration.csv}, BSD 3-Clause, see the LICENSE beside it).
 *
 * <p>The reference latency at a queue depth Q is the run with {@code iodepth = Q} and one
 * job; where fio-plot has none (depth 64 on the single disks), the median over the runs
 * whose {@code iodepth × numjobs = Q}.
 */
public final class FioReference {
    private static final String RESOURCE = "/io/opensdrs/testbed/fio-plot/fio-runs-calibration.csv";

    /** fio-plot device path of each calibrated profile. */
    public static final Map<String, String> DEVICE_OF_PROFILE = Map.of(
            DeviceProfiles.HGST_7K2, "HPMICROSERVERG10/SATA_AHCI_HGST_HTS72101_100GB_7K2RPM",
            DeviceProfiles.WD740GD_10K, "HPMICROSERVERG10/SATA_AHCI_WD740GD_74GB_10RPM/RUN1",
            DeviceProfiles.IBM_M1015_RAID5, "SERVER/IBM_M1015/8x2TBRAID5MDADM",
            DeviceProfiles.INTEL_D3_S4610, "HPMICROSERVERG10/SATA_AHCI_INTEL_D3-S4610_SSDSC2KG48");

    /** One fio run. */
    public record Run(String device, String rw, int iodepth, int numjobs, double iops, double latMeanMs) {
    }

    private final List<Run> runs;

    private FioReference(List<Run> runs) {
        this.runs = runs;
    }

    public static FioReference load() {
        try (InputStream in = FioReference.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            List<Run> runs = new ArrayList<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String header = r.readLine();
            if (header == null || !header.startsWith("device,rw,bs,iodepth,numjobs")) {
                throw new IllegalStateException("unexpected header in " + RESOURCE);
            }
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split(",", -1);
                runs.add(new Run(f[0], f[1], Integer.parseInt(f[3]), Integer.parseInt(f[4]),
                        Double.parseDouble(f[7]), Double.parseDouble(f[8])));
            }
            return new FioReference(List.copyOf(runs));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Run> runs() {
        return runs;
    }

    /** Reference mean latency (ms) of 4 KiB random reads at queue depth {@code q} for a calibrated profile. */
    public OptionalDouble randReadLatencyMs(String profile, int q) {
        String device = DEVICE_OF_PROFILE.get(profile);
        if (device == null) {
            throw new IllegalArgumentException("profile '" + profile + "' is not calibrated to fio-plot");
        }
        for (Run run : runs) {
            if (run.device().equals(device) && run.rw().equals("randread") && run.iodepth() == q && run.numjobs() == 1) {
                return OptionalDouble.of(run.latMeanMs());
            }
        }
        List<Double> same = new ArrayList<>();
        for (Run run : runs) {
            if (run.device().equals(device) && run.rw().equals("randread") && run.iodepth() * run.numjobs() == q) {
                same.add(run.latMeanMs());
            }
        }
        if (same.isEmpty()) {
            return OptionalDouble.empty();
        }
        Collections.sort(same);
        int n = same.size();
        return OptionalDouble.of(n % 2 == 1 ? same.get(n / 2) : (same.get(n / 2 - 1) + same.get(n / 2)) / 2);
    }
}
