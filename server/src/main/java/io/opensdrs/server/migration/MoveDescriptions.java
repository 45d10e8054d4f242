package io.opensdrs.server.migration;

import org.springframework.jdbc.core.JdbcTemplate;
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

    private final JdbcTemplate jdbc;

    public MoveDescriptions(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
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
        return name("vm", moid);
    }

    /** A datastore's name as the inventory holds it, or last held it. */
    public String datastore(String moid) {
        return name("datastore", moid);
    }

    private String name(String table, String moid) {
        return jdbc.queryForList("SELECT name FROM " + table + " WHERE moid = ?", String.class, moid).stream().findFirst()
                .or(() -> jdbc.queryForList("SELECT name FROM known_name WHERE moid = ?", String.class, moid).stream().findFirst())
                .orElse(moid);
    }
}
