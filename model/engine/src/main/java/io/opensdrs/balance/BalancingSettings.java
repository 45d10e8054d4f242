package io.opensdrs.balance;

/**
 * A datastore cluster's Storage DRS settings, with vSphere's defaults (SPEC §4) and the
 * seeds' constants (Pesto §5.4: migration OIOs 16, invocation period 16 h).
 *
 * <p>Immutable; {@link #toBuilder()} to change a value. Subsystem automation levels that are
 * null inherit the cluster level, as in SDRS's advanced automation settings.
 */
public final class BalancingSettings {

    private final AutomationLevel clusterAutomation;
    private final AutomationLevel spaceAutomation;
    private final AutomationLevel ioAutomation;
    private final AutomationLevel ruleEnforcementAutomation;
    private final AutomationLevel evacuationAutomation;
    private final SpaceThresholdMode spaceThresholdMode;
    private final double spaceUtilizationThreshold;
    private final double freeSpaceThresholdGb;
    private final double minSpaceUtilizationDifference;
    private final boolean ioLoadBalanceEnabled;
    private final double ioLatencyThresholdMs;
    private final double ioImbalanceThresholdMs;
    private final double invocationPeriodHours;
    private final double migrationOutstandingIos;
    private final double migrationIoSizeKb;
    private final int maxMovesPerRun;
    private final int maxConcurrentMigrationsPerDatastore;
    private final int maxConcurrentMigrationsPerHost;
    private final boolean keepVmdksTogetherByDefault;
    private final boolean ignoreAffinityForMaintenance;
    private final boolean costBenefitOnBounds;

    private BalancingSettings(Builder b) {
        this.clusterAutomation = require(b.clusterAutomation, "clusterAutomation");
        this.spaceAutomation = b.spaceAutomation;
        this.ioAutomation = b.ioAutomation;
        this.ruleEnforcementAutomation = b.ruleEnforcementAutomation;
        this.evacuationAutomation = b.evacuationAutomation;
        this.spaceThresholdMode = require(b.spaceThresholdMode, "spaceThresholdMode");
        this.spaceUtilizationThreshold = range(b.spaceUtilizationThreshold, 0.5, 1.0, "spaceUtilizationThreshold (50–100 %)");
        this.freeSpaceThresholdGb = range(b.freeSpaceThresholdGb, 0, Double.MAX_VALUE, "freeSpaceThresholdGb");
        this.minSpaceUtilizationDifference = range(b.minSpaceUtilizationDifference, 0, 0.5, "minSpaceUtilizationDifference (0–50 %)");
        this.ioLoadBalanceEnabled = b.ioLoadBalanceEnabled;
        this.ioLatencyThresholdMs = range(b.ioLatencyThresholdMs, 0, 1000, "ioLatencyThresholdMs");
        this.ioImbalanceThresholdMs = range(b.ioImbalanceThresholdMs, 0, 1000, "ioImbalanceThresholdMs");
        this.invocationPeriodHours = range(b.invocationPeriodHours, 1.0 / 60, 24 * 30, "invocationPeriodHours");
        this.migrationOutstandingIos = range(b.migrationOutstandingIos, 1, 1024, "migrationOutstandingIos");
        this.migrationIoSizeKb = range(b.migrationIoSizeKb, 1, 4096, "migrationIoSizeKb");
        this.maxMovesPerRun = (int) range(b.maxMovesPerRun, 0, 100_000, "maxMovesPerRun");
        this.maxConcurrentMigrationsPerDatastore = (int) range(b.maxConcurrentMigrationsPerDatastore, 1, 1000, "maxConcurrentMigrationsPerDatastore");
        this.maxConcurrentMigrationsPerHost = (int) range(b.maxConcurrentMigrationsPerHost, 1, 1000, "maxConcurrentMigrationsPerHost");
        this.keepVmdksTogetherByDefault = b.keepVmdksTogetherByDefault;
        this.ignoreAffinityForMaintenance = b.ignoreAffinityForMaintenance;
        this.costBenefitOnBounds = b.costBenefitOnBounds;
    }

    private static <T> T require(T v, String name) {
        if (v == null) {
            throw new IllegalArgumentException(name + " must be set");
        }
        return v;
    }

    private static double range(double v, double lo, double hi, String name) {
        if (!(v >= lo && v <= hi)) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + v);
        }
        return v;
    }

    /** vSphere SDRS defaults: manual, 80 %, 5 %, 50 GB, 15 ms on p90, imbalance 5, 16 h, 8/2 concurrent. */
    public static BalancingSettings defaults() {
        return new Builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.clusterAutomation = clusterAutomation;
        b.spaceAutomation = spaceAutomation;
        b.ioAutomation = ioAutomation;
        b.ruleEnforcementAutomation = ruleEnforcementAutomation;
        b.evacuationAutomation = evacuationAutomation;
        b.spaceThresholdMode = spaceThresholdMode;
        b.spaceUtilizationThreshold = spaceUtilizationThreshold;
        b.freeSpaceThresholdGb = freeSpaceThresholdGb;
        b.minSpaceUtilizationDifference = minSpaceUtilizationDifference;
        b.ioLoadBalanceEnabled = ioLoadBalanceEnabled;
        b.ioLatencyThresholdMs = ioLatencyThresholdMs;
        b.ioImbalanceThresholdMs = ioImbalanceThresholdMs;
        b.invocationPeriodHours = invocationPeriodHours;
        b.migrationOutstandingIos = migrationOutstandingIos;
        b.migrationIoSizeKb = migrationIoSizeKb;
        b.maxMovesPerRun = maxMovesPerRun;
        b.maxConcurrentMigrationsPerDatastore = maxConcurrentMigrationsPerDatastore;
        b.maxConcurrentMigrationsPerHost = maxConcurrentMigrationsPerHost;
        b.keepVmdksTogetherByDefault = keepVmdksTogetherByDefault;
        b.ignoreAffinityForMaintenance = ignoreAffinityForMaintenance;
        b.costBenefitOnBounds = costBenefitOnBounds;
        return b;
    }

    public AutomationLevel clusterAutomation() {
        return clusterAutomation;
    }

    /** The level that governs moves of this reason: the subsystem's if set, else the cluster's. */
    public AutomationLevel automationFor(ReasonCode reason) {
        AutomationLevel subsystem;
        switch (reason) {
            case BALANCE_DATASTORE_SPACE_USAGE:
            case DATASTORE_SPACE_OUTAGE:
                subsystem = spaceAutomation;
                break;
            case BALANCE_DATASTORE_IO_LOAD:
                subsystem = ioAutomation;
                break;
            case VIRTUAL_DISK_ANTI_AFFIN:
            case VIRTUAL_DISK_JOINT_AFFIN:
                subsystem = ruleEnforcementAutomation;
                break;
            case DATASTORE_MAINT:
                subsystem = evacuationAutomation;
                break;
            default:
                subsystem = null;
        }
        return subsystem != null ? subsystem : clusterAutomation;
    }

    public SpaceThresholdMode spaceThresholdMode() {
        return spaceThresholdMode;
    }

    public double spaceUtilizationThreshold() {
        return spaceUtilizationThreshold;
    }

    public double freeSpaceThresholdGb() {
        return freeSpaceThresholdGb;
    }

    public double minSpaceUtilizationDifference() {
        return minSpaceUtilizationDifference;
    }

    public boolean ioLoadBalanceEnabled() {
        return ioLoadBalanceEnabled;
    }

    public double ioLatencyThresholdMs() {
        return ioLatencyThresholdMs;
    }

    public double ioImbalanceThresholdMs() {
        return ioImbalanceThresholdMs;
    }

    public double invocationPeriodHours() {
        return invocationPeriodHours;
    }

    public double migrationOutstandingIos() {
        return migrationOutstandingIos;
    }

    public double migrationIoSizeKb() {
        return migrationIoSizeKb;
    }

    public int maxMovesPerRun() {
        return maxMovesPerRun;
    }

    public int maxConcurrentMigrationsPerDatastore() {
        return maxConcurrentMigrationsPerDatastore;
    }

    public int maxConcurrentMigrationsPerHost() {
        return maxConcurrentMigrationsPerHost;
    }

    public boolean keepVmdksTogetherByDefault() {
        return keepVmdksTogetherByDefault;
    }

    public boolean ignoreAffinityForMaintenance() {
        return ignoreAffinityForMaintenance;
    }

    public boolean costBenefitOnBounds() {
        return costBenefitOnBounds;
    }

    /** The most space a datastore may hold before it is over the threshold, in GB. */
    public double spaceLimitGb(double capacityGb) {
        return spaceThresholdMode == SpaceThresholdMode.UTILIZATION
                ? capacityGb * spaceUtilizationThreshold
                : Math.max(0, capacityGb - freeSpaceThresholdGb);
    }

    /** Mutable builder with SDRS defaults. */
    public static final class Builder {
        private AutomationLevel clusterAutomation = AutomationLevel.MANUAL;
        private AutomationLevel spaceAutomation;
        private AutomationLevel ioAutomation;
        private AutomationLevel ruleEnforcementAutomation;
        private AutomationLevel evacuationAutomation;
        private SpaceThresholdMode spaceThresholdMode = SpaceThresholdMode.UTILIZATION;
        private double spaceUtilizationThreshold = 0.80;
        private double freeSpaceThresholdGb = 50;
        private double minSpaceUtilizationDifference = 0.05;
        private boolean ioLoadBalanceEnabled = true;
        private double ioLatencyThresholdMs = 15;
        private double ioImbalanceThresholdMs = 5;
        private double invocationPeriodHours = 16;
        private double migrationOutstandingIos = 16;
        private double migrationIoSizeKb = 64;
        private int maxMovesPerRun = 16;
        private int maxConcurrentMigrationsPerDatastore = 8;
        private int maxConcurrentMigrationsPerHost = 2;
        private boolean keepVmdksTogetherByDefault = true;
        private boolean ignoreAffinityForMaintenance = false;
        private boolean costBenefitOnBounds = true;

        public Builder clusterAutomation(AutomationLevel v) { clusterAutomation = v; return this; }
        public Builder spaceAutomation(AutomationLevel v) { spaceAutomation = v; return this; }
        public Builder ioAutomation(AutomationLevel v) { ioAutomation = v; return this; }
        public Builder ruleEnforcementAutomation(AutomationLevel v) { ruleEnforcementAutomation = v; return this; }
        public Builder evacuationAutomation(AutomationLevel v) { evacuationAutomation = v; return this; }
        public Builder spaceThresholdMode(SpaceThresholdMode v) { spaceThresholdMode = v; return this; }
        public Builder spaceUtilizationThreshold(double v) { spaceUtilizationThreshold = v; return this; }
        public Builder freeSpaceThresholdGb(double v) { freeSpaceThresholdGb = v; return this; }
        public Builder minSpaceUtilizationDifference(double v) { minSpaceUtilizationDifference = v; return this; }
        public Builder ioLoadBalanceEnabled(boolean v) { ioLoadBalanceEnabled = v; return this; }
        public Builder ioLatencyThresholdMs(double v) { ioLatencyThresholdMs = v; return this; }
        public Builder ioImbalanceThresholdMs(double v) { ioImbalanceThresholdMs = v; return this; }
        public Builder invocationPeriodHours(double v) { invocationPeriodHours = v; return this; }
        public Builder migrationOutstandingIos(double v) { migrationOutstandingIos = v; return this; }
        public Builder migrationIoSizeKb(double v) { migrationIoSizeKb = v; return this; }
        public Builder maxMovesPerRun(int v) { maxMovesPerRun = v; return this; }
        public Builder maxConcurrentMigrationsPerDatastore(int v) { maxConcurrentMigrationsPerDatastore = v; return this; }
        public Builder maxConcurrentMigrationsPerHost(int v) { maxConcurrentMigrationsPerHost = v; return this; }
        public Builder keepVmdksTogetherByDefault(boolean v) { keepVmdksTogetherByDefault = v; return this; }
        public Builder ignoreAffinityForMaintenance(boolean v) { ignoreAffinityForMaintenance = v; return this; }
        public Builder costBenefitOnBounds(boolean v) { costBenefitOnBounds = v; return this; }

        public BalancingSettings build() {
            return new BalancingSettings(this);
        }
    }
}
