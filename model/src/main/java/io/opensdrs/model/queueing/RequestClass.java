package io.opensdrs.model.queueing;

import io.opensdrs.model.Workload;

/**
 * Noorshams' four request classes (§IV-B): random/sequential × read/write. A mixed workload
 * belongs to the class of its majority (randomness ≥ 0.5 is random, read share ≥ 0.5 is read).
 */
public enum RequestClass {
    RANDOM_READ, SEQUENTIAL_READ, RANDOM_WRITE, SEQUENTIAL_WRITE;

    public static RequestClass of(Workload w) {
        boolean random = w.randomFraction() >= 0.5;
        boolean read = w.readFraction() >= 0.5;
        if (read) {
            return random ? RANDOM_READ : SEQUENTIAL_READ;
        }
        return random ? RANDOM_WRITE : SEQUENTIAL_WRITE;
    }
}
