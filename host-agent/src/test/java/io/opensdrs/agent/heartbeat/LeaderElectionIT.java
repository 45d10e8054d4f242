package io.opensdrs.agent.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance 1: three agent processes on one datastore directory. Exactly one leads; after
 * kill -9 of the leader another leads within the reclaim window (B7: the time is printed); a
 * leader stopped with SIGSTOP until its block is reclaimed never injects again without
 * re-joining.
 */
class LeaderElectionIT {

    static final long PERIOD_MS = 300;
    static final String[] AGENT_ARGS = {"--period", PERIOD_MS + "ms", "--injector", "dry",
            "--inject-interval", "1s", "--level-duration", "40ms"};

    @TempDir
    Path datastore;

    static void await(java.util.function.BooleanSupplier c, Duration max) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (!c.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(20);
        }
    }

    Map<String, Process> startThree(AgentProcesses agents) throws Exception {
        Map<String, Process> byHost = new HashMap<>();
        for (int i = 1; i <= 3; i++) {
            byHost.put("esx-" + i, agents.startAgent("esx-" + i, datastore, AGENT_ARGS));
        }
        return byHost;
    }

    @Test
    void oneLeaderAndFailoverAfterKill9() throws Exception {
        try (AgentProcesses agents = new AgentProcesses()) {
            Map<String, Process> byHost = startThree(agents);
            await(() -> agents.leaders(h -> byHost.get(h).isAlive()).size() == 1
                    && agents.snapshot().stream().filter(e -> e.type().equals("joined")).count() >= 3, Duration.ofSeconds(20));
            Thread.sleep(4 * PERIOD_MS); // stays one
            List<String> leaders = agents.leaders(h -> byHost.get(h).isAlive());
            assertThat(leaders).as("exactly one leader").hasSize(1);
            String old = leaders.get(0);
            await(() -> agents.snapshot().stream().anyMatch(e -> e.host().equals(old) && e.type().equals("inject-end")),
                    Duration.ofSeconds(10));
            assertThat(agents.snapshot()).as("the leader injects").anyMatch(e -> e.host().equals(old) && e.type().equals("inject-end"));
            assertThat(agents.snapshot()).as("only the leader injects")
                    .noneMatch(e -> !e.host().equals(old) && e.type().equals("inject-start"));

            long killedAt = System.nanoTime();
            byHost.get(old).destroyForcibly(); // SIGKILL: no release of its block
            await(() -> agents.snapshot().stream().anyMatch(e -> e.receivedNanos() > killedAt && e.type().equals("leader")),
                    Duration.ofSeconds(10));
            AgentProcesses.Event next = agents.snapshot().stream()
                    .filter(e -> e.receivedNanos() > killedAt && e.type().equals("leader")).findFirst().orElseThrow();
            double ms = (next.receivedNanos() - killedAt) / 1e6;
            System.out.println(String.format(Locale.ROOT, "B7 failover: kill -9 of leader %s -> %s leads after %.0f ms = %.2f heartbeat periods"
                    + " (period %d ms, reclaim after 2 silent periods)", old, next.host(), ms, ms / PERIOD_MS, PERIOD_MS));
            assertThat(next.host()).isNotEqualTo(old);
            // Acceptance 1: a new leader within 3 heartbeat periods of the kill. Reclaim needs 2
            // silent periods from the last heartbeat seen, observed every period/4, plus the claim
            // settle (period/4): at most 2.5 periods plus scheduling.
            assertThat(ms / PERIOD_MS).isLessThanOrEqualTo(3.0);
            Thread.sleep(4 * PERIOD_MS);
            assertThat(agents.leaders(h -> byHost.get(h).isAlive())).hasSize(1);
        }
    }

    @Test
    void stoppedLeaderIsFencedAndNeverInjectsWithoutRejoining() throws Exception {
        try (AgentProcesses agents = new AgentProcesses()) {
            Map<String, Process> byHost = startThree(agents);
            await(() -> agents.leaders(h -> true).size() == 1
                    && agents.snapshot().stream().filter(e -> e.type().equals("joined")).count() >= 3, Duration.ofSeconds(20));
            String old = agents.leaders(h -> true).get(0);
            await(() -> agents.snapshot().stream().anyMatch(e -> e.host().equals(old) && e.type().equals("inject-start")),
                    Duration.ofSeconds(10));
            Process p = byHost.get(old);
            long stoppedAt = System.nanoTime();
            AgentProcesses.signal(p, "STOP");
            // Another host reclaims block 0 (a join with a higher generation) and leads.
            await(() -> agents.snapshot().stream().anyMatch(e -> e.receivedNanos() > stoppedAt && !e.host().equals(old)
                    && e.type().equals("joined") && e.line().contains("block=0")), Duration.ofSeconds(10));
            assertThat(agents.snapshot()).as("block 0 reclaimed while %s is stopped", old)
                    .anyMatch(e -> e.receivedNanos() > stoppedAt && !e.host().equals(old) && e.type().equals("joined")
                            && e.line().contains("block=0"));
            // The migrating host logs "joined" a moment before "leader": wait for the line.
            await(() -> agents.leaders(h -> !h.equals(old)).size() == 1, Duration.ofSeconds(3));
            List<String> during = agents.leaders(h -> !h.equals(old));
            assertThat(during).hasSize(1);
            Thread.sleep(2 * PERIOD_MS);

            long resumedAt = System.nanoTime();
            AgentProcesses.signal(p, "CONT");
            Thread.sleep(12 * PERIOD_MS);

            List<AgentProcesses.Event> after = agents.snapshot().stream()
                    .filter(e -> e.receivedNanos() > resumedAt && e.host().equals(old)).toList();
            after.forEach(e -> System.out.println("after SIGCONT: " + e.line()));
            int lost = indexOf(after, "lost-block");
            int rejoined = -1;
            for (int i = Math.max(lost, 0); i < after.size(); i++) {
                if (after.get(i).type().equals("joined")) {
                    rejoined = i;
                    break;
                }
            }
            int injected = indexOf(after, "inject-start");
            assertThat(lost).as("the resumed host notices it lost its block").isNotNegative();
            assertThat(rejoined).as("and re-joins").isGreaterThan(lost);
            if (injected >= 0) {
                assertThat(injected).as("no injection before re-joining").isGreaterThan(rejoined);
            }
            assertThat(agents.leaders(h -> true)).as("still one leader").hasSize(1).doesNotContain(old);
            assertThat(after).noneMatch(e -> e.type().equals("inject-start"));
        }
    }

    static int indexOf(List<AgentProcesses.Event> events, String type) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).type().equals(type)) {
                return i;
            }
        }
        return -1;
    }
}
