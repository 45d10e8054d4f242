package io.opensdrs.scenario;

/** A virtual disk, the datastore it starts on, and the workload it runs. */
public record DiskSpec(String name, double sizeGB, String datastore, Boolean thin, WorkloadSpec workload) {
    public DiskSpec {
        thin = thin != null && thin;
    }
}
