package io.opensdrs.server.api;

import io.opensdrs.server.ingest.AgentRepository;
import io.opensdrs.server.inventory.InventoryRepository;
import io.opensdrs.server.inventory.InventoryRepository.ClusterRow;
import io.opensdrs.server.inventory.InventoryRepository.DatastoreRow;
import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.settings.ClusterSettings;
import io.opensdrs.server.settings.ClusterSettingsRepository;
import io.opensdrs.server.stats.WorkloadPercentiles;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** What the controllers ask of several features at once: clusters and datastores as the API names them. */
@Component
class InventoryQueries {

    private final InventoryRepository inventory;
    private final ClusterSettingsRepository settings;
    private final WorkloadPercentiles percentiles;
    private final DatastoreModels models;
    private final AgentRepository agents;

    InventoryQueries(InventoryRepository inventory, ClusterSettingsRepository settings, WorkloadPercentiles percentiles,
                     DatastoreModels models, AgentRepository agents) {
        this.inventory = inventory;
        this.settings = settings;
        this.percentiles = percentiles;
        this.models = models;
        this.agents = agents;
    }

    List<ClusterRow> clusters() {
        return inventory.clusters();
    }

    ClusterRow cluster(String moid) {
        return inventory.cluster(moid).orElseThrow(() -> new NotFoundException("no datastore cluster " + moid));
    }

    ClusterSettings settings(String clusterMoid) {
        return settings.findById(clusterMoid).orElseGet(() -> ClusterSettings.defaults(clusterMoid));
    }

    List<String> datastoreNamesOf(String clusterMoid) {
        return inventory.datastoreNamesOf(clusterMoid);
    }

    Optional<DatastoreRow> datastore(String name) {
        return inventory.datastore(name);
    }

    /** Datastores from the inventory, plus those only agents or models have mentioned so far. */
    TreeSet<String> datastoreNames(String clusterMoid) {
        if (clusterMoid != null) {
            return new TreeSet<>(datastoreNamesOf(clusterMoid));
        }
        TreeSet<String> names = new TreeSet<>(inventory.datastoreNames());
        names.addAll(percentiles.datastoreNames());
        names.addAll(models.datastoreNames());
        names.addAll(agents.reportedDatastoreNames());
        return names;
    }

    boolean knownDatastore(String name) {
        return datastoreNames(null).contains(name);
    }

    String modelKindOf(String datastoreName) {
        return datastore(datastoreName).map(DatastoreRow::cluster).map(c -> models.selectKind(settings(c).getModelKind(), datastoreName))
                .orElseGet(() -> models.selectKind(DatastoreModels.AUTO, datastoreName));
    }
}
