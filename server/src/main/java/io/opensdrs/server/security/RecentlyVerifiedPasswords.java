package io.opensdrs.server.security;

import org.springframework.security.crypto.password.PasswordEncoder;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The users' passwords are held only as bcrypt hashes, whether configured plain or already hashed,
 * and checked by bcrypt, whose comparison takes the same time whatever the guess. A stateless API
 * checks the password on every call, and one bcrypt check costs tens of milliseconds of CPU; so a
 * password that passed bcrypt is remembered for {@code ttl}, as an HMAC under a key made at start-up
 * (never the password, and useless outside this process). A failed check is never remembered, so
 * every wrong guess pays bcrypt and counts against the {@link LoginThrottle}.
 */
final class RecentlyVerifiedPasswords implements PasswordEncoder {

    private static final int MAX_ENTRIES = 10_000;

    private final PasswordEncoder delegate;
    private final Duration ttl;
    private final Clock clock;
    private final byte[] key = new byte[32];
    private final ConcurrentHashMap<String, Instant> verified = new ConcurrentHashMap<>();

    RecentlyVerifiedPasswords(PasswordEncoder delegate, Duration ttl, Clock clock) {
        this.delegate = delegate;
        this.ttl = ttl;
        this.clock = clock;
        new SecureRandom().nextBytes(key);
    }

    @Override
    public String encode(CharSequence raw) {
        return delegate.encode(raw);
    }

    @Override
    public boolean matches(CharSequence raw, String encoded) {
        if (raw == null || encoded == null) {
            return false;
        }
        String k = mac(encoded + "\u0000" + raw);
        Instant until = verified.get(k);
        Instant now = clock.instant();
        if (until != null && until.isAfter(now)) {
            return true;
        }
        boolean ok = delegate.matches(raw, encoded);
        if (ok) {
            if (verified.size() > MAX_ENTRIES) {
                verified.clear();
            }
            verified.put(k, now.plus(ttl));
        }
        return ok;
    }

    @Override
    public boolean upgradeEncoding(String encoded) {
        return false;
    }

    private String mac(String s) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(m.doFinal(s.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every Java platform", e);
        }
    }
}
