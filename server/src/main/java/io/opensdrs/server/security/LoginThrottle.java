package io.opensdrs.server.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows password guessing: after {@code freeFailures} failed logins in a row for one user name, or
 * from one source address, further attempts for it are refused, before any password is checked, for a
 * delay that doubles with each further failure (from {@code firstDelay} up to {@code maxDelay}). A
 * success resets the user's and the address's count. Counts live in memory: a restart forgets them,
 * which costs an attacker a restart per {@code freeFailures} guesses.
 */
public final class LoginThrottle {

    private static final Logger log = LoggerFactory.getLogger(LoginThrottle.class);
    private static final int MAX_KEYS = 100_000;

    private final int freeFailures;
    private final Duration firstDelay;
    private final Duration maxDelay;
    private final Clock clock;
    private final ConcurrentHashMap<String, Failures> failures = new ConcurrentHashMap<>();

    private record Failures(int count, Instant blockedUntil) {
    }

    public LoginThrottle(int freeFailures, Duration firstDelay, Duration maxDelay, Clock clock) {
        this.freeFailures = freeFailures;
        this.firstDelay = firstDelay;
        this.maxDelay = maxDelay;
        this.clock = clock;
    }

    /** How long the user or address must still wait before its next attempt; empty when it may try now. */
    public Optional<Duration> wait(String user, String address) {
        Instant now = clock.instant();
        Duration longest = Duration.ZERO;
        for (String key : keys(user, address)) {
            Failures f = failures.get(key);
            if (f != null && f.blockedUntil() != null && f.blockedUntil().isAfter(now)) {
                Duration d = Duration.between(now, f.blockedUntil());
                longest = d.compareTo(longest) > 0 ? d : longest;
            }
        }
        return longest.isZero() ? Optional.empty() : Optional.of(longest);
    }

    public void failed(String user, String address) {
        if (failures.size() > MAX_KEYS) {
            // bounded memory under a spray of names: the oldest blocks are lost, never the check itself
            failures.entrySet().removeIf(e -> e.getValue().blockedUntil() == null || e.getValue().blockedUntil().isBefore(clock.instant()));
        }
        Instant now = clock.instant();
        for (String key : keys(user, address)) {
            Failures f = failures.compute(key, (k, old) -> next(old == null ? 1 : old.count() + 1, now));
            if (f.blockedUntil() != null) {
                log.warn("login: {} failed logins in a row for {}; next attempt refused until {}", f.count(), key, f.blockedUntil());
            }
        }
    }

    public void succeeded(String user, String address) {
        for (String key : keys(user, address)) {
            failures.remove(key);
        }
    }

    private Failures next(int count, Instant now) {
        if (count < freeFailures) {
            return new Failures(count, null);
        }
        int doublings = Math.min(count - freeFailures, 30);
        Duration d = firstDelay.multipliedBy(1L << doublings);
        return new Failures(count, now.plus(d.compareTo(maxDelay) > 0 ? maxDelay : d));
    }

    private static String[] keys(String user, String address) {
        return new String[]{"user " + (user == null ? "" : user), "address " + (address == null ? "" : address)};
    }
}
