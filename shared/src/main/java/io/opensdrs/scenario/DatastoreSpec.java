package io.opensdrs.scenario;

/**
 * A datastore and the device behind it.
 *
 * @param thinProvisioned unallocated regions read back as zeros, fast (Pesto §5.1.2)
 */
public record DatastoreSpec(String name, double capacityGB, Boolean thinProvisioned, DeviceSpec device) {
    public DatastoreSpec {
        thinProvisioned = thinProvisioned != null && thinProvisioned;
    }
}
