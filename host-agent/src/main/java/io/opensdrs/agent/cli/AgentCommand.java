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
import io.opensdrs.agent.session.AgentCredential;
import io.opensdrs.agent.vscsi.EmulatedIoTarget;
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
    public enum InjectorKind { none, dry, real, emulated }

    @Option(names = "--host", description = "this ESX host's name (its id in heartbeat blocks)")
    String host;

    @Option(names = "--datastore", paramLabel = "DIR", description = "a datastore directory this host sees (repeatable)")
    List<Path> datastores = new ArrayList<>();

    @Option(names = "--period", converter = DurationConverter.class, defaultValue = "4s",
            description = "heartbeat period (Pesto §5.1.1: 4 s); default ${DEFAULT-VALUE}")
    Duration period;

    @Option(names = "--reclaim-periods", defaultValue = "2",
            description = "a block silent for this many periods is reclaimed; default ${DEFAULT-VALUE}")
    int reclaimPeriods;

    @Option(names = "--blocks", defaultValue = "64", description = "slots in the heartbeat file; default ${DEFAULT-VALUE}")
    int blocks;

    @Option(names = "--injector", defaultValue = "real",
            description = "none, dry (in-process synthetic device), real (O_DIRECT file) or emulated (the testbed's"
                    + " vSCSI service, needs --vscsi); default ${DEFAULT-VALUE}")
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

    @Option(names = "--server", paramLabel = "HOST:PORT",
            description = "the management server's agent gRPC endpoint; without it nothing is reported")
    String server;

    @Option(names = "--agent-id", description = "the id the credential was issued for; default: --host")
    String agentId;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "file holding this agent's bearer token (else the environment variable SDRS_AGENT_TOKEN)")
    Path tokenFile;

    @Option(names = "--buffer-capacity", defaultValue = "10000",
            description = "reports kept while the server is unreachable (oldest dropped beyond); default ${DEFAULT-VALUE}")
    int bufferCapacity;

    @Option(names = "--vscsi", paramLabel = "HOST:PORT",
            description = "the testbed's vSCSI service: per-disk statistics, emulated injector IO, throttles on the IO path")
    String vscsi;

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
        if (injectorKind == InjectorKind.emulated && vscsi == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--injector emulated needs --vscsi HOST:PORT");
        }
        AgentEvents events = AgentEvents.stdout(host);
        AgentConnections wiring = new AgentConnections(host, agentId != null ? agentId : host, events);
        if (vscsi != null) {
            wiring.connectVScsi(vscsi);
        }
        LeaderElection.Timing timing = new LeaderElection.Timing(period, reclaimPeriods,
                Duration.ofNanos(Math.max(period.toNanos() / 4, 10_000_000L)));
        List<DatastoreAgent> agents = new ArrayList<>();
        for (Path dir : datastores) {
            Files.createDirectories(dir);
            String ds = dir.toAbsolutePath().normalize().getFileName().toString();
            HeartbeatFile file = HeartbeatFile.open(dir, blocks);
            LeaderElection election = new LeaderElection(ds, host, file, timing, events,
                    wiring.stats() != null ? wiring.stats().forDatastore(ds, period) : HostIoStatistics.NONE);
            WorkloadInjector injector = injectorKind == InjectorKind.none ? null : new WorkloadInjector(
                    new WorkloadInjector.Settings(WorkloadInjector.Settings.DEFAULT_LEVELS, levelDuration, 4096));
            Path injectorFile = dir.resolve(".sdrs-injector");
            DatastoreAgent.TargetFactory targets;
            if (injectorKind == InjectorKind.real) {
                targets = () -> {
                    DirectIoFile.prepare(injectorFile, injectorFileMiB << 20, bytes -> { });
                    return DirectIoFile.open(injectorFile);
                };
            } else if (injectorKind == InjectorKind.emulated) {
                targets = () -> EmulatedIoTarget.open(wiring.vscsiChannel(), host, ds);
            } else {
                targets = () -> new SyntheticIoTarget(Duration.ofNanos(200_000), Duration.ofNanos(300_000), false);
            }
            InjectorSchedule schedule = new InjectorSchedule(injectInterval, period.multipliedBy(2),
                    Duration.ofHours(1), System.currentTimeMillis());
            DatastoreAgent agent = new DatastoreAgent(election, schedule, injector, targets,
                    injectorKind == InjectorKind.real ? InjectorMode.REAL_IO : InjectorMode.EMULATED, events,
                    wiring::report);
            agent.reportViewsTo(wiring::report);
            agents.add(agent);
            wiring.datastore(agent, dir);
        }
        if (server != null) {
            wiring.connectServer(server, AgentCredential.load(wiring.agentId(), tokenFile, System.getenv()),
                    bufferCapacity, injectorKind);
        }
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            wiring.close();
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
