package io.opensdrs.agent.cli;

import java.time.Duration;
import picocli.CommandLine;

/** Parses "4s", "300ms", "2m", "1h", "1d" or ISO-8601 ("PT4S"). */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String s) {
        String v = s.trim().toLowerCase();
        if (v.startsWith("p")) {
            return Duration.parse(s.trim().toUpperCase());
        }
        if (v.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
        }
        long n = Long.parseLong(v.substring(0, v.length() - 1));
        switch (v.charAt(v.length() - 1)) {
            case 's': return Duration.ofSeconds(n);
            case 'm': return Duration.ofMinutes(n);
            case 'h': return Duration.ofHours(n);
            case 'd': return Duration.ofDays(n);
            default: throw new CommandLine.TypeConversionException("not a duration: " + s);
        }
    }
}
