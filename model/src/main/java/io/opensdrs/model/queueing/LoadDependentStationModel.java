package io.opensdrs.model.queueing;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.OioWeightedAggregation;
import io.opensdrs.model.Workload;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queueing model of Noorshams et al. (SPEC §3.4): per request class, a closed network
 * whose t clients (outstanding IOs) each issue the next request as soon as the last completes
 * (no think time), served by one load-dependent station in the flow-equivalent-server sense
 * (Noorshams §IV-B): its mean service time at population t is μ(t, s) from
 * {@link ServiceTimeRegression} (Eq. 1), calibrated from response times only. With all t
 * clients at that station, the mean response time is μ(t, s) and the throughput t/μ(t, s)
 * (Little's law).
 *
 * <p>Not modelled here: the separate cache and RAID stations with a split probability and
 * the ln f working-set terms for the uncached regime (Eqs. 2–3) — {@link Workload} carries
 * no working-set size; {@link ServiceTimeRegression} supports the ln f terms for callers that have it.
 */
public final class LoadDependentStationModel implements DatastoreModel {

    public static final String NAME = "queueing";
    private static final double PRUNE_ABOVE = 0.05;

    private final Map<RequestClass, ServiceTimeRegression> stations = new EnumMap<>(RequestClass.class);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public FitSummary fit(List<Observation> observations) {
        Map<RequestClass, List<Observation>> byClass = new EnumMap<>(RequestClass.class);
        for (Observation o : observations) {
            byClass.computeIfAbsent(RequestClass.of(o.workload()), k -> new ArrayList<>()).add(o);
        }
        Map<RequestClass, ServiceTimeRegression> fitted = new EnumMap<>(RequestClass.class);
        Map<String, Double> parameters = new LinkedHashMap<>();
        for (Map.Entry<RequestClass, List<Observation>> e : byClass.entrySet()) {
            List<Observation> obs = e.getValue();
            double[] t = new double[obs.size()];
            double[] s = new double[obs.size()];
            double[] r = new double[obs.size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = obs.get(i).outstandingIos();
                s[i] = obs.get(i).workload().ioSizeKb();
                r[i] = obs.get(i).latencyMs();
            }
            ServiceTimeRegression reg = ServiceTimeRegression.calibrate(t, s, null, r, ServiceTimeRegression.equation1Terms(), PRUNE_ABOVE);
            fitted.put(e.getKey(), reg);
            String prefix = byClass.size() == 1 ? "" : e.getKey().name().toLowerCase(java.util.Locale.ROOT) + ".";
            double[] c = reg.coefficients();
            parameters.put(prefix + "const", c[0]);
            for (int i = 0; i < reg.terms().size(); i++) {
                parameters.put(prefix + reg.terms().get(i).toString(), c[i + 1]);
            }
        }
        stations.clear();
        stations.putAll(fitted);
        return new FitSummary(NAME, rSquared(observations), parameters, observations.size());
    }

    @Override
    public boolean isFitted() {
        return !stations.isEmpty();
    }

    /** Clients add up (closed loop); request size is averaged weighted by clients. */
    @Override
    public Workload aggregate(List<Workload> workloads) {
        return OioWeightedAggregation.aggregate(workloads);
    }

    @Override
    public Prediction predict(Workload workload) {
        if (stations.isEmpty()) {
            throw new IllegalStateException("queueing model is not fitted");
        }
        ServiceTimeRegression station = stations.get(RequestClass.of(workload));
        double mu;
        if (station != null) {
            mu = station.serviceTimeMs(workload.outstandingIos(), workload.ioSizeKb(), 1);
        } else {
            // A class the calibration never saw (the injector calibrates random reads only, but a
            // balancer also asks about a storage vMotion's sequential copy): answer with the
            // slowest calibrated station at this load, an upper bound rather than no answer.
            mu = 0;
            for (ServiceTimeRegression s : stations.values()) {
                mu = Math.max(mu, s.serviceTimeMs(workload.outstandingIos(), workload.ioSizeKb(), 1));
            }
        }
        return Prediction.of(workload.outstandingIos(), mu, null);
    }
}
