package io.opensdrs.server.ingest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * Ingestion counters on Prometheus: {@code sdrs_ingest_samples_total} (its rate is the ingestion
 * rate), {@code sdrs_ingest_messages_total{status}} (accepted, duplicate, rejected; live: the
 * seconds of SLEDS's watched streams, held in memory and not acknowledged, their samples not in
 * the samples total), {@code sdrs_ingest_refused_calls_total}.
 */
@Component
public class IngestMetrics {

    private final Counter samples;
    private final Counter accepted;
    private final Counter duplicate;
    private final Counter rejected;
    private final Counter live;
    private final Counter refused;

    public IngestMetrics(MeterRegistry registry) {
        samples = Counter.builder("sdrs.ingest.samples").description("per-disk samples accepted from agents").register(registry);
        accepted = message(registry, "accepted");
        duplicate = message(registry, "duplicate");
        rejected = message(registry, "rejected");
        live = message(registry, "live");
        refused = Counter.builder("sdrs.ingest.refused.calls").description("agent calls refused for want of a valid credential")
                .register(registry);
    }

    private static Counter message(MeterRegistry registry, String status) {
        return Counter.builder("sdrs.ingest.messages").tag("status", status).description("agent messages by ack status")
                .register(registry);
    }

    public void message(String status, int sampleCount) {
        switch (status) {
            case "accepted":
                accepted.increment();
                samples.increment(sampleCount);
                break;
            case "duplicate":
                duplicate.increment();
                break;
            case "live":
                live.increment();
                break;
            default:
                rejected.increment();
        }
    }

    public void refusedCall() {
        refused.increment();
    }
}
