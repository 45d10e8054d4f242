package io.opensdrs.server;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's own configuration ({@code sdrs.*}), validated at start-up (SPEC §5: configuration
 * is external input too; a bad value stops the server with the property named).
 */
@Validated
@ConfigurationProperties(prefix = "sdrs")
public class SdrsProperties {

    @NotBlank
    private String dataDir = "./sdrs-data";
    @Valid
    private final Grpc grpc = new Grpc();
    @Valid
    private final Security security = new Security();
    @Valid
    private final Stats stats = new Stats();
    @Valid
    private final Models models = new Models();
    @Valid
    private final Inventory inventory = new Inventory();

    public String getDataDir() { return dataDir; }
    public void setDataDir(String dataDir) { this.dataDir = dataDir; }
    public Grpc getGrpc() { return grpc; }
    public Security getSecurity() { return security; }
    public Stats getStats() { return stats; }
    public Models getModels() { return models; }
    public Inventory getInventory() { return inventory; }

    public static class Grpc {
        /** Port of the agent gRPC service; 0 picks a free port (tests, benchmark). */
        @Min(0) @Max(65535)
        private int port = 9443;
        /** Largest AgentMessage accepted, bytes. */
        @Min(1024)
        private int maxMessageBytes = 16 * 1024 * 1024;
        /**
         * How long an agent's call made while the statistics are rebuilt after a start waits for the
         * rebuild before it is answered UNAVAILABLE (the agent then retries with its backoff).
         */
        @jakarta.validation.constraints.NotNull
        private java.time.Duration warmupWait = java.time.Duration.ofSeconds(10);

        public int getPort() { return port; }
        public java.time.Duration getWarmupWait() { return warmupWait; }
        public void setWarmupWait(java.time.Duration warmupWait) { this.warmupWait = warmupWait; }
        public void setPort(int port) { this.port = port; }
        public int getMaxMessageBytes() { return maxMessageBytes; }
        public void setMaxMessageBytes(int maxMessageBytes) { this.maxMessageBytes = maxMessageBytes; }
    }

    public static class Security {
        @Valid
        private List<User> users = new ArrayList<>();
        /** Failed logins in a row (per user name, per source address) before attempts are delayed. */
        @jakarta.validation.constraints.Min(1)
        private int loginFailuresBeforeDelay = 10;

        public List<User> getUsers() { return users; }
        public void setUsers(List<User> users) { this.users = users; }
        public int getLoginFailuresBeforeDelay() { return loginFailuresBeforeDelay; }
        public void setLoginFailuresBeforeDelay(int n) { this.loginFailuresBeforeDelay = n; }
    }

    public static class User {
        @NotBlank
        private String name;
        /** Plain or {@code {bcrypt}...}; empty: generated at start-up and written to {@code <data-dir>/<name>.password}. */
        private String password = "";
        @NotEmpty
        private List<String> roles = new ArrayList<>(List.of("ADMIN"));

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public String getPassword() { return password; }
        public void setPassword(String password) { this.password = password; }
        public List<String> getRoles() { return roles; }
        public void setRoles(List<String> roles) { this.roles = roles; }
    }

    public static class Stats {
        /**
         * Sliding windows the P² percentiles are kept over (Pesto §5.2). The longest default is
         * the balancing invocation period, 16 h (Pesto §5.4, SDRS loadBalanceInterval).
         */
        @NotEmpty
        private List<Duration> windows = new ArrayList<>(List.of(Duration.ofHours(1), Duration.ofHours(16)));
        /** Raw sample batches older than this are deleted. */
        @NotNull
        private Duration rawRetention = Duration.ofHours(16);
        /** At most this many raw samples are kept; the oldest batches go first. */
        @Min(1)
        private long rawMaxSamples = 20_000_000L;
        @NotNull
        private Duration retentionCheckInterval = Duration.ofMinutes(1);
        @NotNull
        private Duration snapshotInterval = Duration.ofMinutes(5);
        @Valid
        private final VCenterCounters vcenter = new VCenterCounters();

        public VCenterCounters getVcenter() { return vcenter; }
        public List<Duration> getWindows() { return windows; }
        public void setWindows(List<Duration> windows) { this.windows = windows; }
        public Duration getRawRetention() { return rawRetention; }
        public void setRawRetention(Duration rawRetention) { this.rawRetention = rawRetention; }
        public long getRawMaxSamples() { return rawMaxSamples; }
        public void setRawMaxSamples(long rawMaxSamples) { this.rawMaxSamples = rawMaxSamples; }
        public Duration getRetentionCheckInterval() { return retentionCheckInterval; }
        public void setRetentionCheckInterval(Duration d) { this.retentionCheckInterval = d; }
        public Duration getSnapshotInterval() { return snapshotInterval; }
        public void setSnapshotInterval(Duration snapshotInterval) { this.snapshotInterval = snapshotInterval; }
    }

    /** Reading every disk's IO from vCenter's realtime performance counters ({@code sdrs.stats.vcenter.*}). */
    public static class VCenterCounters {
        /** How often QueryPerf is asked for the samples since the last read; vCenter's realtime interval is 20 s. */
        @NotNull
        private Duration pollInterval = Duration.ofSeconds(20);
        /** Entities (VMs or hosts) per QueryPerf call. */
        @Min(1) @Max(5000)
        private int batchSize = 250;
        /** QueryPerf calls of one read in flight at once (1: one after another). */
        @Min(1) @Max(16)
        private int parallelCalls = 2;
        /** Samples asked for of an entity read for the first time (after a start: the last minutes). */
        @Min(1) @Max(180)
        private int firstSamples = 15;
        /** Longest wait between reads while vCenter fails them (the wait doubles from the poll interval). */
        @NotNull
        private Duration maxBackoff = Duration.ofMinutes(5);
        /** A running VM's disk without a sample for this many intervals is a fault. */
        @Min(1)
        private int noDataIntervals = 3;

        public Duration getPollInterval() { return pollInterval; }
        public void setPollInterval(Duration pollInterval) { this.pollInterval = pollInterval; }
        public int getBatchSize() { return batchSize; }
        public void setBatchSize(int batchSize) { this.batchSize = batchSize; }
        public int getParallelCalls() { return parallelCalls; }
        public void setParallelCalls(int parallelCalls) { this.parallelCalls = parallelCalls; }
        public int getFirstSamples() { return firstSamples; }
        public void setFirstSamples(int firstSamples) { this.firstSamples = firstSamples; }
        public Duration getMaxBackoff() { return maxBackoff; }
        public void setMaxBackoff(Duration maxBackoff) { this.maxBackoff = maxBackoff; }
        public int getNoDataIntervals() { return noDataIntervals; }
        public void setNoDataIntervals(int noDataIntervals) { this.noDataIntervals = noDataIntervals; }
    }

    public static class Models {
        @NotNull
        private Duration refreshInterval = Duration.ofMinutes(5);
        /** Held-out observations per datastore that the automatic model choice scores. */
        @Min(1)
        private int selectionObservations = 30;
        /** Most recent passive observations a passive refit uses. */
        @Min(3)
        private int passiveFitObservations = 200;

        public Duration getRefreshInterval() { return refreshInterval; }
        public void setRefreshInterval(Duration refreshInterval) { this.refreshInterval = refreshInterval; }
        public int getSelectionObservations() { return selectionObservations; }
        public void setSelectionObservations(int n) { this.selectionObservations = n; }
        public int getPassiveFitObservations() { return passiveFitObservations; }
        public void setPassiveFitObservations(int n) { this.passiveFitObservations = n; }
    }

    public static class Inventory {
        @NotNull
        private Duration fullSyncInterval = Duration.ofHours(24);
        @NotNull
        private Duration incrementalInterval = Duration.ofSeconds(20);

        public Duration getFullSyncInterval() { return fullSyncInterval; }
        public void setFullSyncInterval(Duration d) { this.fullSyncInterval = d; }
        public Duration getIncrementalInterval() { return incrementalInterval; }
        public void setIncrementalInterval(Duration d) { this.incrementalInterval = d; }
    }
}
