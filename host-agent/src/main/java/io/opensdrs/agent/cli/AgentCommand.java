package io.opensdrs.agent.cli;

import io.opensdrs.agent.DatastoreAgent;
import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.agent.heartbeat.HeartbeatFile;
import io.opensdrs.agent.heartbeat.HostIoStatistics;
import io.opensdrs.agent.heartbeat.LeaderElection;
import io.opensdrs.agent.injector.DirectIoFile;
import io.opensdrs.agent.injector.InjectorSchedule;
import io.opensdrs.agent.injector.SyntheticIoTarget;
import io.opensdrs.agent.injector.WorkloadInjector;
import io.opensdrs.shared.agent.v1.InjectorMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The host agent's entry point (SPEC §2): one {@link DatastoreAgent} per {@code --datastore}
 * directory. Events go to standard output, one line each, starting with {@code EVENT}.
 */
@Command(name = "sdrs-host-agent", mixinStandardHelpOptions = true, version = "sdrs-host-agent 0.1.0",
        description = "OpenSDRS host agent: heartbeat blocks, leader election, workload injector, throttling.",
        subcommands = {B5Command.class})
public final class AgentCommand implements Callable<Integer> {

    /** What the injector reads when this host leads. */
    public enum InjectorKind { none, dry, real }

    @Option(names = "--host", description = "this ESX host's name (its id in heartbeat blocks)")
    String host;

    @Option(names = "--datastore", paramLabel = "DIR", description = "a datastore directory this host sees (repeatable)")
    List<Path> datastores = new ArrayList<>();

    @Option(names = "--period", converter = DurationConverter.class, defaultValue = "4s",
            description = "heartbeat period (Pesto §5.1.1: 4 s); default ${DEFAULT-VALUE}")
    Duration period;

    @Option(names = "--reclaim-periods", defaultValue = "3",
            description = "a block silent for this many periods is reclaimed; default ${DEFAULT-VALUE}")
    int reclaimPeriods;

    @Option(names = "--blocks", defaultValue = "64", description = "slots in the heartbeat file; default ${DEFAULT-VALUE}")
    int blocks;

    @Option(names = "--injector", defaultValue = "real",
            description = "none, dry (in-process synthetic device) or real (O_DIRECT file); default ${DEFAULT-VALUE}")
    InjectorKind injectorKind;

    @Option(names = "--inject-interval", converter = DurationConverter.class, defaultValue = "1d",
            description = "time between injector runs per datastore; default ${DEFAULT-VALUE}")
    Duration injectInterval;

    @Option(names = "--level-duration", converter = DurationConverter.class, defaultValue = "2s",
            description = "injector run per OIO level; default ${DEFAULT-VALUE}")
    Duration levelDuration;

    @Option(names = "--injector-file-size-mib", defaultValue = "1024",
            description = "size of the real injector's file in each datastore; default ${DEFAULT-VALUE}")
    long injectorFileMiB;

    @Option(names = "--server", description = "management server address (the gRPC session is not part of this build yet)")
    String server;

    @Option(names = "--run-for", converter = DurationConverter.class,
            description = "exit (releasing the blocks) after this long; default: run until killed")
    Duration runFor;

    public static void main(String[] args) {
        System.exit(new CommandLine(new AgentCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (host == null || datastores.isEmpty()) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--host and at least one --datastore are required");
        }
        if (server != null) {
            System.err.println("note: --server " + server + " given; the gRPC session to the server is not in this build");
        }
        AgentEvents events = AgentEvents.stdout(host);
        LeaderElection.Timing timing = new LeaderElection.Timing(period, reclaimPeriods,
                Duration.ofNanos(Math.max(period.toNanos() / 4, 10_000_000L)));
        List<DatastoreAgent> agents = new ArrayList<>();
        for (Path dir : datastores) {
            Files.createDirectories(dir);
            String ds = dir.toAbsolutePath().normalize().getFileName().toString();
            HeartbeatFile file = HeartbeatFile.open(dir, blocks);
            LeaderElection election = new LeaderElection(ds, host, file, timing, events, HostIoStatistics.NONE);
            WorkloadInjector injector = injectorKind == InjectorKind.none ? null : new WorkloadInjector(
                    new WorkloadInjector.Settings(WorkloadInjector.Settings.DEFAULT_LEVELS, levelDuration, 4096));
            Path injectorFile = dir.resolve(".sdrs-injector");
            DatastoreAgent.TargetFactory targets = injectorKind == InjectorKind.real
                    ? () -> {
                        DirectIoFile.prepare(injectorFile, injectorFileMiB << 20, bytes -> { });
                        return DirectIoFile.open(injectorFile);
                    }
                    : () -> new SyntheticIoTarget(Duration.ofNanos(200_000), Duration.ofNanos(300_000), false);
            InjectorSchedule schedule = new InjectorSchedule(injectInterval, period.multipliedBy(2),
                    Duration.ofHours(1), System.currentTimeMillis());
            agents.add(new DatastoreAgent(election, schedule, injector, targets,
                    injectorKind == InjectorKind.real ? InjectorMode.REAL_IO : InjectorMode.EMULATED, events,
                    r -> { }));
        }
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (DatastoreAgent a : agents) {
                try {
                    a.close();
                } catch (Exception e) {
                    System.err.println("closing " + a.election().datastore() + ": " + e);
                }
            }
            done.countDown();
        }, "agent-shutdown"));
        events.emit("-", "started", "pid=" + ProcessHandle.current().pid() + " period=" + period.toMillis() + "ms");
        agents.forEach(DatastoreAgent::start);
        if (runFor != null) {
            Thread.sleep(runFor.toMillis());
            return 0; // System.exit runs the shutdown hook, which releases the blocks
        }
        done.await();
        return 0;
    }
}
