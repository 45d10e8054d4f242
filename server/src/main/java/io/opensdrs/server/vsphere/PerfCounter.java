package io.opensdrs.server.vsphere;

/**
 * A counter of vCenter's PerformanceManager ({@code perfCounter}).
 *
 * @param key       the id QueryPerf takes; it differs between vCenters, so counters are found by name
 * @param name      {@code group.name.rollup}, e.g. {@code virtualDisk.readOIO.latest}
 * @param unit      the unit's key: {@code number}, {@code millisecond}, {@code microsecond}, {@code kiloBytesPerSecond}, ...
 * @param statsType {@code absolute}, {@code delta} or {@code rate}
 */
public record PerfCounter(int key, String name, String unit, String statsType) {
}
