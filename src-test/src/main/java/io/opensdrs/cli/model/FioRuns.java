package io.opensdrs.cli.model;

import io.opensdrs.model.pesto.LqCurve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the flattened fio-plot benchmark file (columns device, rw, bs, iodepth, numjobs,
 * runtime_s, dir, iops, lat_mean_ms, …): one (outstanding IOs, latency, IOPS) curve per
 * device for a chosen rw/bs/numjobs, with outstanding IOs = iodepth × numjobs.
 */
public final class FioRuns {

    private static final List<String> REQUIRED = List.of("device", "rw", "bs", "iodepth", "numjobs", "iops", "lat_mean_ms");

    private final Map<String, LqCurve> curves;

    private FioRuns(Map<String, LqCurve> curves) {
        this.curves = curves;
    }

    /**
     * @param numjobs keep rows with this numjobs, or all rows when ≤ 0
     */
    public static FioRuns read(Path csv, String rw, String bs, int numjobs) {
        List<String> lines;
        try {
            lines = Files.readAllLines(csv);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --fio-csv " + csv, e);
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("--fio-csv " + csv + " is empty");
        }
        List<String> header = Arrays.asList(lines.get(0).trim().split(",", -1));
        for (String column : REQUIRED) {
            if (!header.contains(column)) {
                throw new IllegalArgumentException("--fio-csv " + csv + " has no column '" + column + "' (header: " + lines.get(0) + ")");
            }
        }
        int iDevice = header.indexOf("device");
        int iRw = header.indexOf("rw");
        int iBs = header.indexOf("bs");
        int iDepth = header.indexOf("iodepth");
        int iJobs = header.indexOf("numjobs");
        int iIops = header.indexOf("iops");
        int iLat = header.indexOf("lat_mean_ms");
        Map<String, TreeMap<Double, double[]>> points = new TreeMap<>();
        for (int n = 1; n < lines.size(); n++) {
            String line = lines.get(n).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length < header.size()) {
                throw new IllegalArgumentException("--fio-csv " + csv + " line " + (n + 1) + " has " + f.length + " fields, header has " + header.size());
            }
            if (!f[iRw].equals(rw) || !f[iBs].equals(bs)) {
                continue;
            }
            int jobs = parseInt(f[iJobs], "numjobs", n + 1);
            if (numjobs > 0 && jobs != numjobs) {
                continue;
            }
            double oio = (double) parseInt(f[iDepth], "iodepth", n + 1) * jobs;
            double iops = parse(f[iIops], "iops", n + 1);
            double lat = parse(f[iLat], "lat_mean_ms", n + 1);
            points.computeIfAbsent(f[iDevice], k -> new TreeMap<>()).put(oio, new double[] {lat, iops});
        }
        Map<String, LqCurve> curves = new TreeMap<>();
        points.forEach((device, byOio) -> {
            double[] q = new double[byOio.size()];
            double[] l = new double[byOio.size()];
            double[] t = new double[byOio.size()];
            int k = 0;
            for (Map.Entry<Double, double[]> e : byOio.entrySet()) {
                q[k] = e.getKey();
                l[k] = e.getValue()[0];
                t[k++] = e.getValue()[1];
            }
            curves.put(device, new LqCurve(device, q, l, t));
        });
        return new FioRuns(curves);
    }

    public List<String> devices() {
        return new ArrayList<>(curves.keySet());
    }

    public LqCurve curve(String device) {
        LqCurve c = curves.get(device);
        if (c == null) {
            throw new IllegalArgumentException("unknown --device '" + device + "'; devices with such runs: " + String.join(", ", curves.keySet()));
        }
        return c;
    }

    private static int parseInt(String s, String column, int line) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("column '" + column + "' line " + line + ": not an integer: '" + s + "'");
        }
    }

    private static double parse(String s, String column, int line) {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("column '" + column + "' line " + line + ": not a number: '" + s + "'");
        }
    }
}
