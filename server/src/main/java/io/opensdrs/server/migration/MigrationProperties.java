package io.opensdrs.server.migration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/** The migration applier's limits and pacing ({@code sdrs.migration.*}). */
@Validated
@ConfigurationProperties(prefix = "sdrs.migration")
public class MigrationProperties {

    /** Storage vMotions in flight touching one datastore, as source or destination (vSphere: 8). */
    @Min(1) @Max(128)
    private int maxPerDatastore = 8;
    /** Storage vMotions in flight of VMs on one host (vSphere: 2). */
    @Min(1) @Max(128)
    private int maxPerHost = 2;
    /** How often the applier looks at its actions and vCenter's tasks. */
    @NotNull
    private Duration pollInterval = Duration.ofMillis(500);
    /** Attempts of one action when vCenter answers with a transient fault. */
    @Min(1) @Max(100)
    private int maxAttempts = 5;
    /** First retry delay after a transient fault; doubled per attempt up to maxBackoff. */
    @NotNull
    private Duration initialBackoff = Duration.ofSeconds(1);
    @NotNull
    private Duration maxBackoff = Duration.ofMinutes(2);

    public int getMaxPerDatastore() { return maxPerDatastore; }
    public void setMaxPerDatastore(int maxPerDatastore) { this.maxPerDatastore = maxPerDatastore; }
    public int getMaxPerHost() { return maxPerHost; }
    public void setMaxPerHost(int maxPerHost) { this.maxPerHost = maxPerHost; }
    public Duration getPollInterval() { return pollInterval; }
    public void setPollInterval(Duration pollInterval) { this.pollInterval = pollInterval; }
    public int getMaxAttempts() { return maxAttempts; }
    public void setMaxAttempts(int maxAttempts) { this.maxAttempts = maxAttempts; }
    public Duration getInitialBackoff() { return initialBackoff; }
    public void setInitialBackoff(Duration initialBackoff) { this.initialBackoff = initialBackoff; }
    public Duration getMaxBackoff() { return maxBackoff; }
    public void setMaxBackoff(Duration maxBackoff) { this.maxBackoff = maxBackoff; }
}
