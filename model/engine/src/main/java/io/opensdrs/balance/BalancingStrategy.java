package io.opensdrs.balance;

/**
 * One way of deciding which disks to move (Kubernetes scheduler framework: one interface,
 * one package per strategy). A run is SDRS's: space balancing first, then the strategy's IO
 * load balancing; the result is a plan, never an action — the state is not changed.
 */
public interface BalancingStrategy {

    /** The registry name ({@code basil}, {@code pesto}, {@code romano}). */
    String name();

    MovePlan plan(ClusterState state);
}
