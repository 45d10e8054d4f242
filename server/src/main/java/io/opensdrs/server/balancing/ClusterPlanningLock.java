package io.opensdrs.server.balancing;

import org.springframework.stereotype.Component;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One plan at a time per datastore cluster. A balancing run (scheduled, space-threshold or "run
 * now") and a maintenance evacuation each read the cluster's state, supersede their kind of pending
 * recommendations and record new ones; two of them on the same cluster at once would plan from a
 * state that the other is about to change. The server's loops run on a pool of threads, so the
 * maintenance check and a scheduled run can meet here, as can either with a REST request.
 */
@Component
public class ClusterPlanningLock {

    private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();

    public <T> T plan(String clusterId, Supplier<T> planning) {
        synchronized (locks.computeIfAbsent(clusterId, k -> new Object())) {
            return planning.get();
        }
    }
}
