package io.opensdrs.agent.heartbeat;

/**
 * The agent's event log: joins, losses, leadership changes, injector runs. The multi-process
 * tests read it from the agents' standard output to check election and fencing.
 */
@FunctionalInterface
public interface AgentEvents {

    /** {@code details} is a space-separated list of {@code key=value}. */
    void emit(String datastore, String type, String details);

    AgentEvents NONE = (ds, type, details) -> { };

    /** One line per event on standard output: {@code EVENT <epoch-ms> host=.. ds=.. type=.. ...}. */
    static AgentEvents stdout(String host) {
        return (ds, type, details) -> {
            String line = "EVENT " + System.currentTimeMillis() + " host=" + host + " ds=" + ds + " type=" + type
                    + (details.isEmpty() ? "" : " " + details);
            synchronized (System.out) {
                System.out.println(line);
                System.out.flush();
            }
        };
    }
}
