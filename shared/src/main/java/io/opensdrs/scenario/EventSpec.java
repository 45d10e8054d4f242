package io.opensdrs.scenario;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.util.List;

/** Something that happens to the world at a given hour of the run. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = EventSpec.Maintenance.class, name = "maintenance"),
        @JsonSubTypes.Type(value = EventSpec.ExitMaintenance.class, name = "exitMaintenance"),
        @JsonSubTypes.Type(value = EventSpec.AddDatastore.class, name = "addDatastore"),
        @JsonSubTypes.Type(value = EventSpec.WorkloadShift.class, name = "workloadShift")
})
public sealed interface EventSpec {
    double atHour();

    /** The administrator puts a datastore into maintenance mode (evacuation). */
    record Maintenance(double atHour, String datastore, Boolean ignoreAffinity) implements EventSpec {
        public Maintenance {
            ignoreAffinity = ignoreAffinity != null && ignoreAffinity;
        }
    }

    /** The datastore leaves maintenance mode. */
    record ExitMaintenance(double atHour, String datastore, Boolean ignoreAffinity) implements EventSpec {
    }

    /** A new datastore appears, seen by the given hosts (all hosts when empty). */
    record AddDatastore(double atHour, DatastoreSpec datastore, String cluster, List<String> hosts)
            implements EventSpec {
        public AddDatastore {
            hosts = hosts == null ? List.of() : List.copyOf(hosts);
        }
    }

    /** A disk's workload changes. */
    record WorkloadShift(double atHour, String vm, String disk, WorkloadSpec workload) implements EventSpec {
    }
}
