package io.opensdrs.scenario;

import java.util.List;

/**
 * A closed-loop workload in the seeds' characteristics: outstanding IOs O, IO size Z,
 * read share R, randomness X (BASIL §3, Romano §4.1), plus think time and phases over
 * the day.
 */
public record WorkloadSpec(double oio, Double ioSizeKB, Double readPct, Double randomPct, Double thinkTimeMs,
                           List<PhaseSpec> phases) {
    public WorkloadSpec {
        ioSizeKB = ioSizeKB == null ? 4.0 : ioSizeKB;
        readPct = readPct == null ? 100.0 : readPct;
        randomPct = randomPct == null ? 100.0 : randomPct;
        thinkTimeMs = thinkTimeMs == null ? 0.0 : thinkTimeMs;
        phases = phases == null ? List.of() : List.copyOf(phases);
    }

    /** The workload in force at an hour of the day (0 ≤ hourOfDay < 24): the first phase covering it wins. */
    public WorkloadSpec at(double hourOfDay) {
        for (PhaseSpec p : phases) {
            if (hourOfDay >= p.fromHour() && hourOfDay < p.toHour()) {
                return new WorkloadSpec(
                        p.oio() != null ? p.oio() : oio,
                        p.ioSizeKB() != null ? p.ioSizeKB() : ioSizeKB,
                        p.readPct() != null ? p.readPct() : readPct,
                        p.randomPct() != null ? p.randomPct() : randomPct,
                        p.thinkTimeMs() != null ? p.thinkTimeMs() : thinkTimeMs,
                        List.of());
            }
        }
        return phases.isEmpty() ? this : new WorkloadSpec(oio, ioSizeKB, readPct, randomPct, thinkTimeMs, List.of());
    }
}
