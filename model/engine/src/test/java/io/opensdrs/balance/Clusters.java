package io.opensdrs.balance;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.Workload;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Small hand-made clusters for unit tests: one host sees every datastore. */
public final class Clusters {

    private final List<DatastoreState> datastores = new ArrayList<>();
    private final List<VmState> vms = new ArrayList<>();
    private final List<Rule> rules = new ArrayList<>();
    private BalancingSettings settings = BalancingSettings.defaults();
    private DisplayNames names = DisplayNames.NONE;

    public static Clusters cluster() {
        return new Clusters();
    }

    public Clusters datastore(String id, double capacityGb, DatastoreModel model, LatencyPercentiles observed) {
        datastores.add(DatastoreState.of(id, capacityGb, 0, model, observed));
        return this;
    }

    /** A datastore in the given maintenance state. */
    public Clusters datastoreIn(MaintenanceState maintenance, String id, double capacityGb, DatastoreModel model) {
        datastores.add(new DatastoreState(id, capacityGb, 0, true, maintenance, model, null));
        return this;
    }

    /** A single-disk VM on {@code ds}. */
    public Clusters vm(String id, String ds, double sizeGb, double oio) {
        return vm(id, VmOverride.DEFAULT, ds, sizeGb, oio);
    }

    public Clusters vm(String id, VmOverride override, String ds, double sizeGb, double oio) {
        vms.add(new VmState(id, "h0", override, null,
                List.of(new DiskState(id + "-d0", sizeGb, ds, new Workload(oio, 4, 1, 1), 0))));
        return this;
    }

    public Clusters vm(VmState vm) {
        vms.add(vm);
        return this;
    }

    public Clusters rule(Rule r) {
        rules.add(r);
        return this;
    }

    public Clusters settings(BalancingSettings s) {
        settings = s;
        return this;
    }

    /** What the engine's sentences call things by. */
    public Clusters names(DisplayNames n) {
        names = n;
        return this;
    }

    public ClusterState build() {
        List<DatastoreState> withUsage = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (DatastoreState d : datastores) {
            double used = 0;
            for (VmState vm : vms) {
                if (d.id().equals(vm.homeDatastoreId())) {
                    used += vm.homeGb();
                }
                for (DiskState disk : vm.disks()) {
                    if (disk.datastoreId().equals(d.id())) {
                        used += disk.sizeGb();
                    }
                }
            }
            withUsage.add(d.withUsedGb(used));
            ids.add(d.id());
        }
        return new ClusterState("test", withUsage, List.of(new HostState("h0", ids)), vms, rules, settings, names);
    }
}
