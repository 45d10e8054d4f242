package io.opensdrs.agent.cli;

import io.opensdrs.agent.DatastoreAgent;
import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.agent.heartbeat.HeartbeatFile;
import io.opensdrs.agent.heartbeat.HostIoStatistics;
import io.opensdrs.agent.heartbeat.LeaderElection;
import io.opensdrs.agent.injector.CalibrationSchedule;
import io.opensdrs.agent.injector.DirectIoFile;
import io.opensdrs.agent.injector.InjectorSchedule;
import io.opensdrs.agent.injector.SyntheticIoTarget;
import io.opensdrs.agent.injector.WorkloadInjector;
import io.opensdrs.agent.session.AgentCredential;
import io.opensdrs.agent.vscsi.EmulatedIoTarget;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.romano.ShortCalibrationDesign;
import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.agent.DatastoreDiscovery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The host agent's entry point (SPEC §2): one {@link DatastoreAgent} per {@code --datastore}
 * directory and per datastore found under {@code --datastores-root} (rescanned every heartbeat
 * period, {@link DatastoreDiscovery}). Events go to standard output, one line each, starting with {@code EVENT}.
 */
@Command(name = "sdrs-host-agent", mixinStandardHelpOptions = true, version = "sdrs-host-agent 0.1.0",
        description = "OpenSDRS host agent: heartbeat blocks, leader election, workload injector, throttling.")
public final class AgentCommand implements Callable<Integer> {

    /** What the injector reads when this host leads. */
    public enum InjectorKind { none, dry, real, emulated }

    @Option(names = "--host", description = "this ESX host's name (its id in heartbeat blocks)")
    String host;

    @Option(names = "--datastore", paramLabel = "DIR", description = "a datastore directory this host sees (repeatable)")
    List<Path> datastores = new ArrayList<>();

    @Option(names = "--datastores-root", paramLabel = "DIR",
            description = "where this host mounts its datastores, like /vmfs/volumes: every subdirectory (or symbolic link"
                    + " to a directory) is a datastore named as the entry; rescanned every heartbeat period")
    Path datastoresRoot;

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

    @Option(names = "--level-max-ios", defaultValue = "" + WorkloadInjector.Settings.DEFAULT_MAX_IOS_PER_LEVEL,
            description = "an injector level also ends after this many IOs (each thread still completes "
                    + WorkloadInjector.MIN_IOS_PER_THREAD + "); default ${DEFAULT-VALUE}")
    long levelMaxIos;

    @Option(names = "--injector-io-sizes-kb", split = ",", defaultValue = LqSlopeModel.INJECTOR_IO_SIZES_KB,
            description = "IO sizes of the injector's runs, one run each, smallest first: the first is Pesto's line (§5.1),"
                    + " a second teaches the model how much IO size weighs on the device; default ${DEFAULT-VALUE}")
    List<Integer> injectorIoSizesKb;

    @Option(names = "--injector-file-size-mib", defaultValue = "1024",
            description = "size of the real injector's file in each datastore; default ${DEFAULT-VALUE}")
    long injectorFileMiB;

    @Option(names = "--calibration-points-per-run", defaultValue = "25",
            description = "Romano's calibration design (ShortCalibrationDesign, 150 points) runs in parts of this many"
                    + " points, each when the datastore is idle and no injector run is due; 0: no calibration;"
                    + " default ${DEFAULT-VALUE}")
    int calibrationPointsPerRun;

    @Option(names = "--calibration-interval", converter = DurationConverter.class, defaultValue = "30d",
            description = "time from the end of one pass of the calibration design to the next; default ${DEFAULT-VALUE}")
    Duration calibrationInterval;

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
            description = "the testbed's vSCSI service, where the emulated injector's reads go (--injector emulated) and"
                    + " throttles act on the emulated IO path")
    String vscsi;

    @Option(names = "--loads-max-age", converter = DurationConverter.class, defaultValue = "90s",
            description = "the datastores' loads the server reads from vCenter stand for this long; an older or missing"
                    + " one leaves a datastore's load unknown, which is never idle; default ${DEFAULT-VALUE}")
    Duration loadsMaxAge;

    @Option(names = "--run-for", converter = DurationConverter.class,
            description = "exit (releasing the blocks) after this long; default: run until killed")
    Duration runFor;

    public static void main(String[] args) {
        System.exit(new CommandLine(new AgentCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (host == null || (datastores.isEmpty() && datastoresRoot == null)) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--host and at least one --datastore or a --datastores-root are required");
        }
        if (injectorKind == InjectorKind.emulated && vscsi == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--injector emulated needs --vscsi HOST:PORT");
        }
        if (injectorIoSizesKb.isEmpty() || injectorIoSizesKb.stream().anyMatch(kb -> kb == null || kb < 1 || kb > 4096)
                || injectorIoSizesKb.stream().distinct().count() != injectorIoSizesKb.size()) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--injector-io-sizes-kb must list distinct IO sizes from 1 to 4096 KiB, got " + injectorIoSizesKb);
        }
        if (levelMaxIos < WorkloadInjector.MIN_IOS_PER_THREAD) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--level-max-ios must be at least " + WorkloadInjector.MIN_IOS_PER_THREAD + ", got " + levelMaxIos);
        }
        if (calibrationPointsPerRun < 0) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--calibration-points-per-run must be 0 (no calibration) or more, got " + calibrationPointsPerRun);
        }
        AgentEvents events = AgentEvents.stdout(host);
        AgentConnections wiring = new AgentConnections(host, agentId != null ? agentId : host, events,
                new io.opensdrs.agent.heartbeat.ServerLoads(loadsMaxAge));
        if (vscsi != null) {
            wiring.connectVScsi(vscsi);
        }
        LeaderElection.Timing timing = new LeaderElection.Timing(period, reclaimPeriods,
                Duration.ofNanos(Math.max(period.toNanos() / 4, 10_000_000L)));
        Map<String, DatastoreAgent> agents = new ConcurrentHashMap<>();
        for (Path dir : datastores) {
            Files.createDirectories(dir);
            String ds = dir.toAbsolutePath().normalize().getFileName().toString();
            DatastoreAgent a = newDatastoreAgent(ds, dir, wiring, timing, events);
            agents.put(ds, a);
            wiring.datastore(a, dir);
        }
        DatastoreDiscovery discovery = null;
        if (datastoresRoot != null) {
            Files.createDirectories(datastoresRoot);
            discovery = new DatastoreDiscovery(datastoresRoot);
            for (Map.Entry<String, Path> e : discovery.rescan().added().entrySet()) {
                if (!agents.containsKey(e.getKey())) { // a --datastore of the same name wins
                    DatastoreAgent a = newDatastoreAgent(e.getKey(), e.getValue(), wiring, timing, events);
                    agents.put(e.getKey(), a);
                    wiring.datastore(a, e.getValue());
                }
            }
        }
        if (server != null) {
            wiring.connectServer(server, AgentCredential.load(wiring.agentId(), tokenFile, System.getenv()),
                    bufferCapacity, injectorKind, injectorKind != InjectorKind.none && calibrationPointsPerRun > 0);
        }
        CountDownLatch done = new CountDownLatch(1);
        ScheduledExecutorService rescans = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "datastores-rescan");
            t.setDaemon(true);
            return t;
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            rescans.shutdownNow();
            wiring.close();
            for (DatastoreAgent a : agents.values()) {
                try {
                    a.close();
                } catch (Exception e) {
                    System.err.println("closing " + a.election().datastore() + ": " + e);
                }
            }
            done.countDown();
        }, "agent-shutdown"));
        events.emit("-", "started", "pid=" + ProcessHandle.current().pid() + " period=" + period.toMillis() + "ms");
        agents.values().forEach(DatastoreAgent::start);
        if (discovery != null) {
            DatastoreDiscovery d = discovery;
            Set<String> fixed = new HashSet<>();
            datastores.forEach(dir -> fixed.add(dir.toAbsolutePath().normalize().getFileName().toString()));
            rescans.scheduleWithFixedDelay(() -> rescan(d, fixed, agents, wiring, timing, events),
                    period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        }
        if (runFor != null) {
            Thread.sleep(runFor.toMillis());
            return 0; // System.exit runs the shutdown hook, which releases the blocks
        }
        done.await();
        return 0;
    }

    /**
     * One look at the datastores root: a new datastore gets its per-datastore agent (heartbeat
     * block, leader election, injector — its first run is due at once) exactly like a
     * {@code --datastore} one, a datastore gone from the root has its agent closed (its block
     * released if the directory is still reachable), and the server is told with a new
     * registration. A {@code --datastore} directory is never dropped by a rescan.
     */
    static void rescan(DatastoreDiscovery discovery, Set<String> fixed, Map<String, DatastoreAgent> agents,
                       AgentConnections wiring, AgentEvents events, Factory factory) {
        DatastoreDiscovery.Changes changes;
        try {
            changes = discovery.rescan();
        } catch (IOException | RuntimeException e) {
            events.emit("-", "rescan-error", "root=" + discovery.root() + " error=\"" + e + "\"");
            return;
        }
        boolean changed = false;
        for (Map.Entry<String, Path> e : changes.added().entrySet()) {
            String ds = e.getKey();
            if (agents.containsKey(ds)) {
                continue;
            }
            try {
                DatastoreAgent a = factory.create(ds, e.getValue());
                agents.put(ds, a);
                if (wiring != null) {
                    wiring.datastore(a, e.getValue());
                }
                a.start();
                events.emit(ds, "datastore-added", "dir=" + e.getValue());
                changed = true;
            } catch (IOException | RuntimeException ex) {
                events.emit(ds, "datastore-add-error", "error=\"" + ex + "\"");
                discovery.forget(ds); // tried again at the next rescan
            }
        }
        for (String ds : changes.removed()) {
            if (fixed.contains(ds)) {
                continue;
            }
            DatastoreAgent a = agents.remove(ds);
            if (a == null) {
                continue;
            }
            if (wiring != null) {
                wiring.forget(ds);
            }
            try {
                a.close();
            } catch (IOException | RuntimeException ex) {
                events.emit(ds, "close-error", "error=\"" + ex + "\"");
            }
            events.emit(ds, "datastore-removed", "");
            changed = true;
        }
        if (changed && wiring != null) {
            wiring.datastoresChanged();
        }
    }

    private void rescan(DatastoreDiscovery discovery, Set<String> fixed, Map<String, DatastoreAgent> agents,
                        AgentConnections wiring, LeaderElection.Timing timing, AgentEvents events) {
        rescan(discovery, fixed, agents, wiring, events, (ds, dir) -> newDatastoreAgent(ds, dir, wiring, timing, events));
    }

    /** Makes (does not start) the agent of one datastore. */
    @FunctionalInterface
    interface Factory {
        DatastoreAgent create(String datastore, Path dir) throws IOException;
    }

    /** The agent of one datastore: heartbeat file, election, injector and its schedule, reporting. */
    private DatastoreAgent newDatastoreAgent(String ds, Path dir, AgentConnections wiring, LeaderElection.Timing timing,
                                             AgentEvents events) throws IOException {
        HeartbeatFile file = HeartbeatFile.open(dir, blocks);
        LeaderElection election = new LeaderElection(ds, host, file, timing, events,
                server != null ? wiring.loads().forDatastore(ds, period) : HostIoStatistics.NONE);
        // The other workloads' IO for Little's law (Pesto §5.1.1): every live block's and the hosts' without one.
        double periodSeconds = period.toMillis() / 1000.0;
        java.util.function.DoubleSupplier otherIoPerSecond = () -> election.view().ioCount() / periodSeconds;
        List<WorkloadInjector> injectors = new ArrayList<>();
        if (injectorKind != InjectorKind.none) {
            for (int kb : injectorIoSizesKb.stream().sorted().toList()) {
                injectors.add(new WorkloadInjector(
                        new WorkloadInjector.Settings(WorkloadInjector.Settings.DEFAULT_LEVELS, levelDuration, kb * 1024,
                                levelMaxIos), new io.opensdrs.agent.injector.InterferenceCheck(),
                        new io.opensdrs.agent.injector.ThinProvisioningFilter(), otherIoPerSecond, System::currentTimeMillis));
            }
        }
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
        DatastoreAgent agent = new DatastoreAgent(election, schedule, injectors, targets,
                injectorKind == InjectorKind.real ? InjectorMode.REAL_IO : InjectorMode.EMULATED, events,
                wiring::report);
        if (!injectors.isEmpty() && calibrationPointsPerRun > 0) {
            agent.calibrating(new CalibrationSchedule(ShortCalibrationDesign.runOrder(), calibrationPointsPerRun,
                    calibrationInterval, period.multipliedBy(2), Duration.ofHours(1), System.currentTimeMillis()));
        }
        agent.reportViewsTo(wiring::report);
        return agent;
    }
}
