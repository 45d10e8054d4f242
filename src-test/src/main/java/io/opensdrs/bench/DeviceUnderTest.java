package io.opensdrs.bench;

import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;
import io.opensdrs.testbed.device.DeviceProfile;
import io.opensdrs.testbed.device.DeviceProfiles;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An emulated device a benchmark measures: a name for the tables, the testbed profile and
 * the LUN size its streams span.
 */
public record DeviceUnderTest(String name, DeviceProfile profile, long capacityBytes) {

    /** A calibrated profile on a 100 GiB LUN, the size of the fio file it was calibrated against. */
    public static DeviceUnderTest calibrated(String profileName) {
        return new DeviceUnderTest(profileName, DeviceProfiles.get(profileName), 100L << 30);
    }

    /**
     * The devices a benchmark runs on: each distinct datastore device of the {@code scenarios} when any is given
     * (named "scenario/datastore", the first of equal devices kept), else the named profiles on 100 GiB LUNs,
     * else every calibrated profile.
     */
    public static List<DeviceUnderTest> of(List<String> scenarios, List<String> profileNames) throws Exception {
        if (scenarios != null && !scenarios.isEmpty()) {
            Map<String, DeviceUnderTest> distinct = new LinkedHashMap<>();
            for (String f : scenarios) {
                Scenario s = ScenarioCatalog.resolve(f);
                for (DatastoreSpec d : s.datastores()) {
                    DeviceUnderTest dut = new DeviceUnderTest(s.name() + "/" + d.name(), DeviceProfiles.resolve(d.device()),
                            (long) (d.capacityGB() * (1L << 30)));
                    distinct.putIfAbsent(dut.key(), dut);
                }
            }
            return new ArrayList<>(distinct.values());
        }
        List<DeviceUnderTest> out = new ArrayList<>();
        for (String name : profileNames != null ? profileNames : DeviceProfiles.calibrated()) {
            out.add(calibrated(name));
        }
        return out;
    }

    /** A stable key for caches: two datastores with equal keys are the same device. */
    public String key() {
        return profile + "@" + capacityBytes;
    }
}
