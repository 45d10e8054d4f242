package io.opensdrs.capture;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.scenario.PhaseSpec;
import io.opensdrs.scenario.WorkloadSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * A disk's workload for the testbed from what the server measured of it (one
 * {@code CaptureViews.Workload} per UTC hour, and over all windows).
 *
 * <p><b>Closed loop with think time.</b> The testbed's {@code VirtualDiskWorkload} keeps a whole
 * number of IOs in its loop, O<sub>loop</sub>, and waits an exponential think time T after each
 * completion, so it issues λ = O<sub>loop</sub> ÷ (L + T) IOs a second and the device sees
 * λ·L outstanding on average (Little's law). Given the measured mean outstanding IOs O, IOPS λ and
 * latency L: O<sub>loop</sub> = ⌈O − 0.05⌉ (at least 1; the 0.05 keeps a disk measured at 8.02 at
 * 8) and T = O<sub>loop</sub> ÷ λ − L (at least 0). On a device as fast as the measured one the loop
 * then reproduces both λ and O; T is the application's own pause, which does not change with the
 * device.
 *
 * <p><b>Idle windows.</b> In an hour (or over the whole capture) in which the disk did IO in at least
 * half of its windows, its IO windows alone count (idle windows are taken as pauses of the
 * application, not as a lighter load spread over the hour); with fewer, the hour's means over all
 * windows count. An hour without IO is idle (O = 0).
 *
 * <p><b>Phases.</b> Consecutive hours with windows whose workloads are alike (same O<sub>loop</sub>,
 * IO size within 10 %, read and random shares within 5 points, think time within 10 % or 1 ms) are
 * merged into one phase (windows-weighted O and IOPS, IO-weighted Z, R, X, L); a phase alike the
 * disk's overall workload is left out. Hours without windows run the overall workload.
 */
public final class CapturedWorkload {

    /** What one span of windows measured, reduced to what the closed loop needs. */
    public record Measured(long windows, long ios, double oio, double iops, double latencyMs, double ioSizeKb,
                           double readPct, double randomPct) {
        boolean idle() {
            return ios == 0 || !(iops > 0);
        }

        /** O_loop: the loop's whole number of outstanding IOs. */
        int loopOio() {
            return idle() ? 0 : (int) Math.max(1, Math.ceil(oio - 0.05));
        }

        /** T, ms. */
        double thinkTimeMs() {
            if (idle()) {
                return 0;
            }
            double t = loopOio() * 1000.0 / iops - latencyMs;
            return t < 0.01 * Math.max(latencyMs, 0.01) ? 0 : round(t, 2);
        }
    }

    private CapturedWorkload() {
    }

    /** The server's workload view (an hour, or all windows) as a {@link Measured}; idle when it had no IO. */
    public static Measured measured(JsonNode w) {
        long windows = w.path("windows").asLong();
        long active = w.path("activeWindows").asLong();
        long ios = w.path("ios").asLong();
        if (ios == 0 || w.path("latencyMs").isNull() || w.path("latencyMs").isMissingNode()) {
            return new Measured(windows, 0, 0, 0, 0, 4, 100, 100);
        }
        boolean mostlyActive = active * 2 >= windows;
        double oio = mostlyActive ? w.path("oioActive").asDouble() : w.path("oio").asDouble();
        double iops = mostlyActive ? w.path("iopsActive").asDouble() : w.path("iops").asDouble();
        return new Measured(windows, ios, oio, iops, w.path("latencyMs").asDouble(), w.path("ioSizeKb").asDouble(4),
                w.path("readPct").asDouble(100), w.path("randomPct").asDouble(100));
    }

    /** The workload for a disk: its overall workload, with phases for the hours that differ from it. */
    public static WorkloadSpec of(JsonNode overall, JsonNode hours) {
        Measured all = measured(overall);
        List<int[]> spans = new ArrayList<>(); // [fromHour, toHour)
        List<Measured> merged = new ArrayList<>();
        int previousHour = -2;
        List<Measured> group = new ArrayList<>();
        int groupFrom = 0;
        if (hours != null) {
            for (JsonNode h : hours) {
                int hour = h.path("hour").asInt();
                Measured m = measured(h);
                if (!group.isEmpty() && (hour != previousHour + 1 || !alike(group.get(0), m))) {
                    spans.add(new int[]{groupFrom, previousHour + 1});
                    merged.add(merge(group));
                    group = new ArrayList<>();
                }
                if (group.isEmpty()) {
                    groupFrom = hour;
                }
                group.add(m);
                previousHour = hour;
            }
        }
        if (!group.isEmpty()) {
            spans.add(new int[]{groupFrom, previousHour + 1});
            merged.add(merge(group));
        }
        List<PhaseSpec> phases = new ArrayList<>();
        if (all.idle()) {
            // an oio of 0 is not a workload; a disk that did no IO is idle all day
            return new WorkloadSpec(1.0, 4.0, 100.0, 100.0, 0.0, List.of(new PhaseSpec(0, 24, 0.0, null, null, null, null)));
        }
        for (int i = 0; i < spans.size(); i++) {
            Measured m = merged.get(i);
            if (alike(all, m)) {
                continue;
            }
            int[] s = spans.get(i);
            phases.add(m.idle()
                    ? new PhaseSpec(s[0], s[1], 0.0, null, null, null, null)
                    : new PhaseSpec(s[0], s[1], (double) m.loopOio(), size(m), round(m.readPct(), 1), round(m.randomPct(), 1),
                    m.thinkTimeMs()));
        }
        return new WorkloadSpec(all.loopOio(), size(all), round(all.readPct(), 1), round(all.randomPct(), 1), all.thinkTimeMs(),
                phases);
    }

    static boolean alike(Measured a, Measured b) {
        if (a.idle() || b.idle()) {
            return a.idle() && b.idle();
        }
        double ta = a.thinkTimeMs();
        double tb = b.thinkTimeMs();
        return a.loopOio() == b.loopOio()
                && Math.abs(a.ioSizeKb() / b.ioSizeKb() - 1) <= 0.10
                && Math.abs(a.readPct() - b.readPct()) <= 5
                && Math.abs(a.randomPct() - b.randomPct()) <= 5
                && Math.abs(ta - tb) <= Math.max(1.0, 0.10 * Math.max(ta, tb));
    }

    static Measured merge(List<Measured> group) {
        if (group.size() == 1) {
            return group.get(0);
        }
        long windows = 0;
        long ios = 0;
        double oio = 0;
        double iops = 0;
        double lat = 0;
        double size = 0;
        double read = 0;
        double random = 0;
        for (Measured m : group) {
            windows += m.windows();
            ios += m.ios();
            oio += m.oio() * m.windows();
            iops += m.iops() * m.windows();
            lat += m.latencyMs() * m.ios();
            size += m.ioSizeKb() * m.ios();
            read += m.readPct() * m.ios();
            random += m.randomPct() * m.ios();
        }
        if (ios == 0 || windows == 0) {
            return new Measured(windows, 0, 0, 0, 0, 4, 100, 100);
        }
        return new Measured(windows, ios, oio / windows, iops / windows, lat / ios, size / ios, read / ios, random / ios);
    }

    private static double size(Measured m) {
        return Math.max(0.5, round(m.ioSizeKb(), 1));
    }

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
