package io.opensdrs.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves (the server's loops and stores read time from an injected {@link Clock}). */
public final class AdvanceableClock extends Clock {
    private volatile Instant now = Instant.parse("2030-01-01T00:00:00Z");

    public void set(Instant t) {
        now = t;
    }

    public void advance(Duration d) {
        now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
