package io.opensdrs.server.migration;

import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a recommendation's actions move, in the names the vSphere Client shows — "disk 203 of VM
 * vm1 from ds1 to ds2", "VM db from ds-a, ds-c to ds-b", "the home of VM web from ds-a to ds-b" — for the
 * history an administrator reads. An object the inventory no longer holds (a VM destroyed, a
 * datastore removed) is named as it was last read, by its id only when it never was.
 */
@Component
public class MoveDescriptions {

    private final MigrationRepository store;

    public MoveDescriptions(MigrationRepository store) {
        this.store = store;
    }

    public String of(List<MigrationAction> actions) {
        List<String> parts = new ArrayList<>();
        for (MigrationAction a : actions) {
            String vm = "VM " + vm(a.vmId());
            String from = a.sourceDatastores().stream().map(this::datastore).collect(Collectors.joining(", "));
            String to = datastore(a.destinationDatastore());
            if (a.homeOnly()) {
                parts.add("the home of " + vm + " from " + from + " to " + to);
            } else if (a.wholeVm()) {
                parts.add(vm + " from " + from + " to " + to);
            } else {
                String disks = a.diskKeys().size() == 1 ? "disk " + a.diskKeys().get(0)
                        : "disks " + a.diskKeys().stream().map(String::valueOf).collect(Collectors.joining(", "));
                parts.add(disks + " of " + vm + " from " + from + " to " + to);
            }
        }
        return String.join("; ", parts);
    }

    /** A VM's name as the inventory holds it, or last held it. */
    public String vm(String moid) {
        return store.name("vm", moid);
    }

    /** A datastore's name as the inventory holds it, or last held it. */
    public String datastore(String moid) {
        return store.name("datastore", moid);
    }
}
