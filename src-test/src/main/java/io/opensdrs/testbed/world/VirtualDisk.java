package io.opensdrs.testbed.world;

import io.opensdrs.scenario.WorkloadSpec;

/**
 * A virtual disk of the world: which VM and host it belongs to, where its blocks are now
 * (datastore and offset on that datastore's LUN), and the workload it runs.
 */
public final class VirtualDisk {
    private final String vm;
    private final String name;
    private final String host;
    private final long sizeBytes;
    private String datastore;
    private long baseOffset;
    private WorkloadSpec workload;

    VirtualDisk(String vm, String name, String host, long sizeBytes, String datastore, long baseOffset,
                WorkloadSpec workload) {
        this.vm = vm;
        this.name = name;
        this.host = host;
        this.sizeBytes = sizeBytes;
        this.datastore = datastore;
        this.baseOffset = baseOffset;
        this.workload = workload;
    }

    /** "vm/disk", unique in the world. */
    public String id() {
        return vm + "/" + name;
    }

    public String vm() {
        return vm;
    }

    public String name() {
        return name;
    }

    public String host() {
        return host;
    }

    public long sizeBytes() {
        return sizeBytes;
    }

    public String datastore() {
        return datastore;
    }

    public long baseOffset() {
        return baseOffset;
    }

    /** The workload as configured now (after shifts), before phases of the day apply. */
    public WorkloadSpec workload() {
        return workload;
    }

    /** The workload in force at an absolute hour of the run (phases repeat daily). */
    public WorkloadSpec workloadAt(double hour) {
        return workload.at(((hour % 24) + 24) % 24);
    }

    void moveTo(String newDatastore, long newBase) {
        this.datastore = newDatastore;
        this.baseOffset = newBase;
    }

    void setWorkload(WorkloadSpec w) {
        this.workload = w;
    }
}
