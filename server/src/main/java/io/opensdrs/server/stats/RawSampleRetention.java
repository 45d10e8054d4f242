package io.opensdrs.server.stats;

import io.opensdrs.server.SdrsProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Instant;

/** Enforces the raw-sample retention bound (issue: raw samples kept only up to a bound). */
@Component
public class RawSampleRetention {

    private static final Logger log = LoggerFactory.getLogger(RawSampleRetention.class);

    private final StatisticsRepository raw;
    private final SdrsProperties.Stats config;

    public RawSampleRetention(StatisticsRepository raw, SdrsProperties properties) {
        this.raw = raw;
        this.config = properties.getStats();
    }

    @Scheduled(fixedDelayString = "${sdrs.stats.retention-check-interval:PT1M}")
    public void prune() {
        int n = raw.prune(Instant.now().minus(config.getRawRetention()), config.getRawMaxSamples());
        if (n > 0) {
            log.debug("retention: deleted {} raw sample batches", n);
        }
    }
}
