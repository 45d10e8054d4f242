package io.opensdrs.scenario;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * The device behind a datastore, as the testbed emulates it. Fields left out take the
 * values of the named calibrated {@code profile}, or the testbed's defaults for the type.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = DeviceSpec.HddArray.class, name = "hdd-array"),
        @JsonSubTypes.Type(value = DeviceSpec.Ssd.class, name = "ssd")
})
public sealed interface DeviceSpec {

    /** Name of a calibrated testbed profile, or null. */
    String profile();

    /** A RAID group of spinning disks behind an array controller. */
    record HddArray(String profile, Integer disks, Integer rpm, String raid, Integer stripeKB,
                    Double readCacheGB, Double writeCacheMB, Boolean prefetch) implements DeviceSpec {
    }

    /** A flash device with parallel channels. */
    record Ssd(String profile, Integer channels, Double serviceUs, Double writeCacheMB,
               Double writeAmplification) implements DeviceSpec {
    }
}
