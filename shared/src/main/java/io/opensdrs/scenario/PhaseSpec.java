package io.opensdrs.scenario;

/**
 * Within [fromHour, toHour) of every day, the fields that are set replace the workload's.
 * An {@code oio} of 0 makes the disk idle for the phase.
 */
public record PhaseSpec(double fromHour, double toHour, Double oio, Double ioSizeKB, Double readPct,
                        Double randomPct, Double thinkTimeMs) {
}
