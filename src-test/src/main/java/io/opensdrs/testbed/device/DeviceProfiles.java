package io.opensdrs.testbed.device;

import io.opensdrs.scenario.DeviceSpec;
import io.opensdrs.testbed.sim.Simulation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The calibrated device profiles, by name, and how a scenario's {@link DeviceSpec} becomes
 * a device: the named profile (or the type's default) with the fields the scenario sets
 * laid over it.
 *
 * <p>The four calibrated profiles reproduce fio-plot's 4 KiB random-read runs of real
 * devices (`sdrs testbed calibration` prints the comparison). Their mechanical parameters
 * were fitted by hand to those curves; they are plausible for the drives but are fitted
 * values, not datasheet values.
 */
public final class DeviceProfiles {
    /** 2.5" 7,200 rpm laptop disk, HGST HTS721010 (fio-plot: HPMICROSERVERG10/SATA_AHCI_HGST_HTS72101_100GB_7K2RPM). */
    public static final String HGST_7K2 = "hgst-7k2";
    /** 10,000 rpm WD Raptor WD740GD (fio-plot: HPMICROSERVERG10/SATA_AHCI_WD740GD_74GB_10RPM/RUN1). */
    public static final String WD740GD_10K = "wd740gd-10k";
    /** 8 × 2 TB 7,200 rpm disks, mdadm RAID-5 behind an IBM M1015 HBA (fio-plot: SERVER/IBM_M1015/8x2TBRAID5MDADM). */
    public static final String IBM_M1015_RAID5 = "ibm-m1015-8x2tb-raid5";
    /** Intel D3-S4610 480 GB SATA SSD (fio-plot: HPMICROSERVERG10/SATA_AHCI_INTEL_D3-S4610_SSDSC2KG48). */
    public static final String INTEL_D3_S4610 = "intel-d3-s4610";

    /** Defaults for an hdd-array without a profile: a 6-disk 15k RAID-5 of FC disks. */
    public static final String DEFAULT_HDD_ARRAY = "generic-hdd-array";
    /** Defaults for an ssd without a profile. */
    public static final String DEFAULT_SSD = "generic-ssd";

    private static final Map<String, DeviceProfile> PROFILES = new LinkedHashMap<>();

    static {
        // Laptop drive: slow head settle and a weak scheduler that only shortens seeks
        // (no rotational ordering), so throughput grows slowly with queue depth: 59 IOPS
        // at depth 1 to 86 at 64 in fio-plot.
        add(new HddArrayProfile(HGST_7K2, 1, RaidLevel.NONE, 64, 0, 0, true, 0.02, 300,
                new SpindleMechanics(7200, 5.0, 17.9, 110, 1.0, 32, false, 0, 256, 300)));
        // Raptor: fast at depth 1 (123 IOPS), but with its queue in use each command costs
        // about an extra revolution (61 IOPS at depth 2 and 4 in fio-plot).
        add(new HddArrayProfile(WD740GD_10K, 1, RaidLevel.NONE, 64, 0, 0, true, 0.02, 150,
                new SpindleMechanics(10000, 0.3, 8.3, 72, 0.5, 32, false, 7.4, 256, 150)));
        // mdadm RAID-5 over eight 2 TB disks with rotational-position ordering; the fio file
        // covers a small part of the disks, hence short seeks.
        add(new HddArrayProfile(IBM_M1015_RAID5, 8, RaidLevel.RAID5, 64, 0, 0, true, 0.05, 600,
                new SpindleMechanics(7200, 1.0, 8.2, 150, 0.3, 32, true, 0, 512, 600)));
        add(new SsdProfile(INTEL_D3_S4610, 8, 9.3, 550, 27, 60, 400, 512, 3.0));
        add(new HddArrayProfile(DEFAULT_HDD_ARRAY, 6, RaidLevel.RAID5, 64, 4, 512, true, 0.05, 800,
                new SpindleMechanics(15000, 0.6, 7.0, 180, 0.2, 32, true, 0, 512, 800)));
        add(new SsdProfile(DEFAULT_SSD, 8, 8.0, 550, 30, 80, 400, 512, 3.0));
    }

    private DeviceProfiles() {
    }

    private static void add(DeviceProfile p) {
        PROFILES.put(p.name(), p);
    }

    /** The four profiles calibrated to fio-plot, in the calibration table's order. */
    public static List<String> calibrated() {
        return List.of(HGST_7K2, WD740GD_10K, IBM_M1015_RAID5, INTEL_D3_S4610);
    }

    public static List<String> names() {
        return List.copyOf(PROFILES.keySet());
    }

    public static Optional<DeviceProfile> byName(String name) {
        return Optional.ofNullable(PROFILES.get(name));
    }

    public static DeviceProfile get(String name) {
        return byName(name).orElseThrow(() -> new IllegalArgumentException(
                "unknown device profile '" + name + "' (known: " + String.join(", ", names()) + ")"));
    }

    /**
     * The profile a scenario's device describes: its named profile (or the default for its
     * type) with every field the scenario sets laid over it.
     *
     * @throws IllegalArgumentException if the profile is unknown, of the other type, or the
     *                                  result is inconsistent (e.g. raid5 on two disks)
     */
    public static DeviceProfile resolve(DeviceSpec spec) {
        if (spec instanceof DeviceSpec.HddArray h) {
            DeviceProfile base = get(h.profile() != null ? h.profile() : DEFAULT_HDD_ARRAY);
            if (!(base instanceof HddArrayProfile b)) {
                throw new IllegalArgumentException("profile '" + h.profile() + "' is an ssd profile, not an hdd-array one");
            }
            SpindleMechanics mech = h.rpm() != null && h.rpm() != b.mechanics().rpm()
                    ? b.mechanics().withRpm(h.rpm()) : b.mechanics();
            int disks = h.disks() != null ? h.disks() : b.disks();
            RaidLevel raid = h.raid() != null ? RaidLevel.parse(h.raid()) : b.raid();
            return new HddArrayProfile(b.name(), disks, raid,
                    h.stripeKB() != null ? h.stripeKB() : b.stripeKB(),
                    h.readCacheGB() != null ? h.readCacheGB() : b.readCacheGB(),
                    h.writeCacheMB() != null ? h.writeCacheMB() : b.writeCacheMB(),
                    h.prefetch() != null ? h.prefetch() : b.prefetch(),
                    b.controllerMs(), b.busMBps(), mech);
        }
        if (spec instanceof DeviceSpec.Ssd s) {
            DeviceProfile base = get(s.profile() != null ? s.profile() : DEFAULT_SSD);
            if (!(base instanceof SsdProfile b)) {
                throw new IllegalArgumentException("profile '" + s.profile() + "' is an hdd-array profile, not an ssd one");
            }
            return new SsdProfile(b.name(),
                    s.channels() != null ? s.channels() : b.channels(),
                    b.commandUs(), b.linkMBps(),
                    s.serviceUs() != null ? s.serviceUs() : b.readUs(),
                    b.programUs(), b.channelMBps(),
                    s.writeCacheMB() != null ? s.writeCacheMB() : b.writeCacheMB(),
                    s.writeAmplification() != null ? s.writeAmplification() : b.writeAmplification());
        }
        throw new IllegalArgumentException("unknown device type " + spec);
    }

    /** Builds a device of {@code capacityBytes} from a profile. */
    public static StorageDevice build(Simulation sim, DeviceProfile profile, long capacityBytes, long seed) {
        if (profile instanceof HddArrayProfile h) {
            return new HddArrayDevice(sim, h, capacityBytes, seed);
        }
        if (profile instanceof SsdProfile s) {
            return new SsdDevice(sim, s, capacityBytes);
        }
        throw new IllegalArgumentException("unknown profile " + profile);
    }
}
