package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.PerfCounter;
import io.opensdrs.server.vsphere.PerfQuery;
import io.opensdrs.server.vsphere.PerfSamples;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PerfAnswerReader;
import io.opensdrs.server.vsphere.vim25.PerformanceTypes;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ObjectContent;
import io.opensdrs.server.vsphere.vim25.VimFaultException;

import java.util.ArrayList;
import java.util.List;

/**
 * The PerformanceManager: its counters ({@code perfCounter}), found by name because their keys
 * differ between vCenters, and QueryPerf in the realtime interval and the csv format.
 */
final class PerformanceManager {
    /** The realtime interval of hosts and VMs, seconds. */
    static final int REALTIME_INTERVAL = 20;

    private final Session session;

    PerformanceManager(Session session) {
        this.session = session;
    }

    private ManagedObjectReference self() {
        return session.vim().serviceContent().perfManager;
    }

    /** Every counter with a name ({@code group.name.rollup}); one without cannot be asked for by name. */
    List<PerfCounter> perfCounter() throws VimFaultException {
        List<PerformanceTypes.PerfCounterInfo> all = session.call(() -> {
            ObjectContent oc = PropertyCollector.of(session.vim()).retrieveOne(self(), "perfCounter");
            if (oc != null && oc.get("perfCounter") instanceof PerformanceTypes.ArrayOfPerfCounterInfo a) {
                return a.items;
            }
            throw new VimFaultException("RetrievePropertiesEx", "InvalidResponse", "PerformanceManager has no perfCounter");
        });
        List<PerfCounter> counters = new ArrayList<>(all.size());
        for (PerformanceTypes.PerfCounterInfo c : all) {
            PerfCounter counter = counter(c);
            if (counter != null) {
                counters.add(counter);
            }
        }
        return counters;
    }

    static PerfCounter counter(PerformanceTypes.PerfCounterInfo c) {
        if (c.groupInfo == null || c.nameInfo == null || c.rollupType == null) {
            return null;
        }
        return new PerfCounter(c.key, c.groupInfo.key + "." + c.nameInfo.key + "." + c.rollupType,
                c.unitInfo == null ? "" : c.unitInfo.key, c.statsType);
    }

    /**
     * QueryPerf, all the queries in one call, answered in the order asked; each answer is read as it
     * streams in ({@link PerfAnswerReader}) and then from its csv ({@link PerfCsv}).
     */
    List<PerfSamples> queryPerf(List<PerfQuery> queries) throws VimFaultException {
        PerformanceTypes.QueryPerfRequest req = new PerformanceTypes.QueryPerfRequest();
        req.self = self();
        for (PerfQuery q : queries) {
            req.querySpec.add(spec(q));
        }
        List<PerformanceTypes.PerfEntityMetricBase> answers =
                session.call(() -> session.vim().invokeList("QueryPerf", req, PerfAnswerReader::read));
        List<PerfSamples> samples = new ArrayList<>(answers.size());
        for (PerformanceTypes.PerfEntityMetricBase a : answers) {
            samples.add(PerfCsv.read(a));
        }
        return samples;
    }

    /** Every instance ({@code "*"}) of each counter, samples after {@code after} (exclusive). */
    static PerformanceTypes.PerfQuerySpec spec(PerfQuery q) {
        PerformanceTypes.PerfQuerySpec spec = new PerformanceTypes.PerfQuerySpec();
        spec.entity = new ManagedObjectReference(q.entityType(), q.entityId());
        spec.startTime = q.after() == null ? null : q.after().toString();
        spec.maxSample = q.maxSamples();
        for (int key : q.counterKeys()) {
            spec.metricId.add(new PerformanceTypes.PerfMetricId(key, "*"));
        }
        spec.intervalId = REALTIME_INTERVAL;
        spec.format = "csv";
        return spec;
    }
}
