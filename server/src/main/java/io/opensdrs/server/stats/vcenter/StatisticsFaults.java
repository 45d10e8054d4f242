package io.opensdrs.server.stats.vcenter;

import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * Faults of the statistics reader, per datastore cluster (V72__statistics_fault.sql): reported on
 * every read that finds them, counted rather than repeated, and resolved by the first read that no
 * longer does.
 */
@Component
public class StatisticsFaults {

    /** What kind of fault; each read re-examines the kinds it can see. */
    public enum Kind {
        /** a running VM's disk without a realtime sample for several intervals */
        NO_DATA("no-data"),
        /** a counter the product reads is not in vCenter's perfCounter */
        COUNTER_MISSING("counter-missing"),
        /** a sample with a value below zero, or without a value it needs */
        BAD_VALUE("bad-value"),
        /** counters for an instance that names no disk of the VM */
        UNKNOWN_INSTANCE("unknown-instance"),
        /** QueryPerf failed: vCenter down, refusing, or an entity it would not answer for */
        VCENTER_UNAVAILABLE("vcenter-unavailable"),
        /** a read that took longer than the interval it reads */
        SLOW("slow");

        public final String code;

        Kind(String code) {
            this.code = code;
        }
    }

    /** A fault as the API shows it. */
    public record Fault(String kind, String subject, String detail, Instant firstSeen, Instant lastSeen, long occurrences,
                        Instant resolvedAt) {
        public boolean active() {
            return resolvedAt == null;
        }
    }

    private final VCenterStatisticsRepository store;

    public StatisticsFaults(VCenterStatisticsRepository store) {
        this.store = store;
    }

    /** Records the fault as seen now, in each cluster named. */
    public void report(Collection<String> clusters, Kind kind, String subject, String detail, Instant now) {
        Timestamp t = Timestamp.from(now);
        String d = detail.length() > 2000 ? detail.substring(0, 2000) : detail;
        String s = subject.length() > 255 ? subject.substring(0, 255) : subject;
        for (String cluster : clusters) {
            if (!store.seeFaultAgain(cluster, kind.code, s, d, t)) {
                store.insertFault(cluster, kind.code, s, d, t);
            }
        }
    }

    /** Resolves the active faults of these kinds that the read started at {@code readStarted} did not see again. */
    public void resolveUnseen(Collection<Kind> kinds, Instant readStarted, Instant now) {
        for (Kind k : kinds) {
            store.resolveFaults(k.code, readStarted, now);
        }
    }

    /** The cluster's active faults and those resolved since {@code resolvedSince}, newest first. */
    public List<Fault> of(String cluster, Instant resolvedSince) {
        return store.faults(cluster, resolvedSince);
    }
}
