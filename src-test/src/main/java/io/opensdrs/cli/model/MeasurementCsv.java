package io.opensdrs.cli.model;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads measurements from a CSV with columns {@code oio, latency_ms} and optionally
 * {@code iops, io_size_kb, read_pct, random_pct} (absent: 4 KiB, 100 % read, 100 % random,
 * Pesto's injector workload).
 */
public final class MeasurementCsv {

    private MeasurementCsv() {
    }

    public static List<Observation> read(Path csv) {
        List<String> lines;
        try {
            lines = Files.readAllLines(csv);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --csv " + csv, e);
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("--csv " + csv + " is empty");
        }
        List<String> header = new ArrayList<>();
        for (String h : lines.get(0).split(",", -1)) {
            header.add(h.trim());
        }
        int oio = require(header, "oio", csv);
        int lat = require(header, "latency_ms", csv);
        int iops = header.indexOf("iops");
        int size = header.indexOf("io_size_kb");
        int read = header.indexOf("read_pct");
        int random = header.indexOf("random_pct");
        List<Observation> out = new ArrayList<>();
        for (int n = 1; n < lines.size(); n++) {
            String line = lines.get(n).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length != header.size()) {
                throw new IllegalArgumentException("--csv " + csv + " line " + (n + 1) + " has " + f.length
                        + " fields, header " + header + " has " + header.size());
            }
            Workload w = new Workload(
                    number(f, oio, "oio", n),
                    size < 0 ? 4 : number(f, size, "io_size_kb", n),
                    read < 0 ? 1 : number(f, read, "read_pct", n) / 100.0,
                    random < 0 ? 1 : number(f, random, "random_pct", n) / 100.0);
            out.add(new Observation(w, number(f, lat, "latency_ms", n), iops < 0 ? Double.NaN : number(f, iops, "iops", n)));
        }
        return out;
    }

    private static int require(List<String> header, String column, Path csv) {
        int i = header.indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException("--csv " + csv + " has no column '" + column + "' (header: " + String.join(",", header)
                    + "; need oio, latency_ms and optionally " + Arrays.asList("iops", "io_size_kb", "read_pct", "random_pct") + ")");
        }
        return i;
    }

    private static double number(String[] f, int i, String column, int n) {
        try {
            return Double.parseDouble(f[i].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("column '" + column + "' line " + (n + 1) + ": not a number: '" + f[i] + "'");
        }
    }
}
