package io.opensdrs.scenario;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.util.List;

/** Storage DRS placement rules (SPEC §4). */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = RuleSpec.VmAntiAffinity.class, name = "vmAntiAffinity"),
        @JsonSubTypes.Type(value = RuleSpec.VmdkAntiAffinity.class, name = "vmdkAntiAffinity"),
        @JsonSubTypes.Type(value = RuleSpec.KeepTogether.class, name = "keepTogether")
})
public sealed interface RuleSpec {
    String name();

    /** The listed VMs keep their disks on pairwise different datastores. */
    record VmAntiAffinity(String name, List<String> vms) implements RuleSpec {
        public VmAntiAffinity {
            vms = List.copyOf(vms);
        }
    }

    /** The listed disks of one VM sit on pairwise different datastores. */
    record VmdkAntiAffinity(String name, String vm, List<String> disks) implements RuleSpec {
        public VmdkAntiAffinity {
            disks = List.copyOf(disks);
        }
    }

    /** Intra-VM affinity for one VM, overriding the cluster default. */
    record KeepTogether(String name, String vm, Boolean enabled) implements RuleSpec {
        public KeepTogether {
            enabled = enabled == null || enabled;
        }
    }
}
