package io.opensdrs.server.api;

import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.settings.ClusterSettings;
import io.opensdrs.server.settings.ClusterSettingsRepository;
import io.opensdrs.server.stats.WorkloadPercentiles;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** Read-side queries the controllers share. */
@Component
class InventoryQueries {

    record DatastoreRow(String moid, String name, String cluster, long capacity, long free, boolean accessible, String maintenance) {
    }

    record ClusterRow(String moid, String name, String datacenter) {
    }

    private final JdbcTemplate jdbc;
    private final ClusterSettingsRepository settings;
    private final WorkloadPercentiles percentiles;
    private final DatastoreModels models;

    InventoryQueries(JdbcTemplate jdbc, ClusterSettingsRepository settings, WorkloadPercentiles percentiles, DatastoreModels models) {
        this.jdbc = jdbc;
        this.settings = settings;
        this.percentiles = percentiles;
        this.models = models;
    }

    List<ClusterRow> clusters() {
        return jdbc.query("SELECT moid, name, datacenter_moid FROM datastore_cluster ORDER BY name",
                (rs, i) -> new ClusterRow(rs.getString(1), rs.getString(2), rs.getString(3)));
    }

    ClusterRow cluster(String moid) {
        return jdbc.query("SELECT moid, name, datacenter_moid FROM datastore_cluster WHERE moid = ?",
                        (rs, i) -> new ClusterRow(rs.getString(1), rs.getString(2), rs.getString(3)), moid)
                .stream().findFirst().orElseThrow(() -> new NotFoundException("no datastore cluster " + moid));
    }

    ClusterSettings settings(String clusterMoid) {
        return settings.findById(clusterMoid).orElseGet(() -> ClusterSettings.defaults(clusterMoid));
    }

    List<String> datastoreNamesOf(String clusterMoid) {
        return jdbc.queryForList("SELECT name FROM datastore WHERE cluster_moid = ? ORDER BY name", String.class, clusterMoid);
    }

    Optional<DatastoreRow> datastore(String name) {
        return jdbc.query(DS + " WHERE name = ?", (rs, i) -> row(rs), name).stream().findFirst();
    }

    /** Datastores from the inventory, plus those only agents or models have mentioned so far. */
    TreeSet<String> datastoreNames(String clusterMoid) {
        if (clusterMoid != null) {
            return new TreeSet<>(datastoreNamesOf(clusterMoid));
        }
        TreeSet<String> names = new TreeSet<>(jdbc.queryForList("SELECT name FROM datastore", String.class));
        names.addAll(percentiles.datastoreNames());
        names.addAll(jdbc.queryForList("SELECT DISTINCT datastore_name FROM datastore_model", String.class));
        names.addAll(jdbc.queryForList("SELECT DISTINCT datastore_name FROM agent_datastore", String.class));
        return names;
    }

    boolean knownDatastore(String name) {
        return datastoreNames(null).contains(name);
    }

    String modelKindOf(String datastoreName) {
        return datastore(datastoreName).map(DatastoreRow::cluster).map(c -> {
            List<String> members = datastoreNamesOf(c);
            return models.selectKind(settings(c).getModelKind(), members);
        }).orElseGet(() -> models.selectKind(DatastoreModels.AUTO, List.of(datastoreName)));
    }

    private static final String DS = "SELECT moid, name, cluster_moid, capacity_bytes, free_bytes, accessible, maintenance_mode FROM datastore";

    private static DatastoreRow row(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new DatastoreRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5), rs.getBoolean(6),
                rs.getString(7));
    }
}
