package io.opensdrs.balance.romano;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.romano.RomanoModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Romano models fitted to a known device law P = speed·O·(0.5 + 0.6·X + Z/64), Romano's test vector (Eqs. 12–15). */
public final class RomanoWorlds {

    private RomanoWorlds() {
    }

    public static double truth(double speed, Workload w) {
        return speed * w.outstandingIos() * (0.5 + 0.6 * w.randomFraction() + w.ioSizeKb() / 64.0);
    }

    public static RomanoModel fitted(double speed, long seed) {
        return fitted(speed, seed, 0);
    }

    /** As {@link #fitted(double, long)} with a further {@code noiseMs} of normal noise on every point: a model with wide intervals. */
    public static RomanoModel fitted(double speed, long seed, double noiseMs) {
        return fitted(speed, seed, noiseMs, 0.02);
    }

    /** With normal noise of {@code noiseMs} plus {@code relativeNoise} × the latency on every point. */
    public static RomanoModel fitted(double speed, long seed, double noiseMs, double relativeNoise) {
        Random rnd = new Random(seed);
        List<Observation> obs = new ArrayList<>();
        for (int x = 0; x <= 100; x += 25) {
            for (int r = 0; r <= 100; r += 50) {
                for (int z = 1; z <= 64; z *= 4) {
                    for (int o = 1; o <= 64; o *= 2) {
                        Workload w = new Workload(o, z, r / 100.0, x / 100.0);
                        obs.add(new Observation(w, Math.max(0.01, truth(speed, w) * (1 + relativeNoise * rnd.nextGaussian()) + noiseMs * rnd.nextGaussian())));
                    }
                }
            }
        }
        RomanoModel model = new RomanoModel();
        model.fit(obs);
        return model;
    }
}
