package io.opensdrs.bench;

import java.util.Collection;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine.Command;

/** B6 (SPEC §8): runs {@link ThrottleBenchmark} with JMH and prints ns per IO against the goal. */
@Command(name = "b6", mixinStandardHelpOptions = true,
        description = "B6: the host agent's throttle admission decision per IO, with JMH (one fork)")
public final class B6Command implements Callable<Integer> {

    public static final double GOAL_NS = 100;

    @Override
    public Integer call() throws Exception {
        Options opts = new OptionsBuilder()
                .include(ThrottleBenchmark.class.getName())
                .forks(1)
                .warmupIterations(3).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(1))
                .build();
        Collection<RunResult> results = new Runner(opts).run();
        System.out.println();
        System.out.println("B6 throttle admission decision (goal <= " + (int) GOAL_NS + " ns per IO; SLEDS: 800 ns)");
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            double ns = r.getPrimaryResult().getScore();
            System.out.printf(Locale.ROOT, "%-18s %8.1f ns/op  +- %.1f  %s%n", name, ns,
                    r.getPrimaryResult().getScoreError(), ns <= GOAL_NS ? "MET" : "NOT MET");
        }
        return 0;
    }
}
