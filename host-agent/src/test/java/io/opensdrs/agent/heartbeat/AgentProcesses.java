package io.opensdrs.agent.heartbeat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/** Starts and watches agent JVMs for the multi-process tests; always kills them on close. */
final class AgentProcesses implements AutoCloseable {

    /** One line of an agent's event log, with the test's receipt time. */
    record Event(long receivedNanos, String host, String type, String line) {
        static Event parse(long t, String line) {
            String host = field(line, "host=");
            String type = field(line, "type=");
            return new Event(t, host, type, line);
        }

        static String field(String line, String key) {
            int i = line.indexOf(" " + key);
            if (i < 0) {
                return "";
            }
            int s = i + 1 + key.length();
            int e = line.indexOf(' ', s);
            return e < 0 ? line.substring(s) : line.substring(s, e);
        }
    }

    static String classpath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    final List<Event> events = Collections.synchronizedList(new ArrayList<>());
    final List<Process> processes = new ArrayList<>();

    Process start(String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx128m", "-cp", classpath(), mainClass));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        processes.add(p);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    long t = System.nanoTime();
                    if (line.startsWith("EVENT ")) {
                        events.add(Event.parse(t, line));
                    }
                    System.out.println("[pid " + p.pid() + "] " + line);
                }
            } catch (IOException ignored) {
                // the process died
            }
        }, "reader-" + p.pid());
        reader.setDaemon(true);
        reader.start();
        return p;
    }

    Process startAgent(String host, Path datastore, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("--host", host, "--datastore", datastore.toString()));
        args.addAll(List.of(extra));
        return start("io.opensdrs.agent.cli.AgentCommand", args.toArray(String[]::new));
    }

    List<Event> snapshot() {
        synchronized (events) {
            return new ArrayList<>(events);
        }
    }

    /** Hosts whose latest leadership event says they lead. */
    List<String> leaders(Predicate<String> alive) {
        java.util.Map<String, Boolean> leads = new java.util.LinkedHashMap<>();
        for (Event e : snapshot()) {
            switch (e.type()) {
                case "leader": leads.put(e.host(), true); break;
                case "follower": case "lost-block": case "released": leads.put(e.host(), false); break;
                default: break;
            }
        }
        List<String> out = new ArrayList<>();
        leads.forEach((h, l) -> {
            if (l && alive.test(h)) {
                out.add(h);
            }
        });
        return out;
    }

    static void signal(Process p, String sig) throws IOException, InterruptedException {
        int rc = new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid())).inheritIO().start().waitFor();
        if (rc != 0) {
            throw new IOException("kill -" + sig + " " + p.pid() + " failed: " + rc);
        }
    }

    @Override
    public void close() {
        for (Process p : processes) {
            if (p.isAlive()) {
                try {
                    signal(p, "CONT"); // a stopped JVM cannot die cleanly otherwise
                } catch (Exception ignored) {
                    // best effort
                }
                p.destroyForcibly();
            }
        }
        for (Process p : processes) {
            try {
                p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
