package io.poimen.memory.retrieval.filter;

import io.poimen.memory.api.ApiException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A time window as people write it, turned into its start ({@code since}), in UTC: {@code 7d}, {@code 12h},
 * {@code 2w}, {@code 2 weeks}, {@code 3 days ago}, {@code last 3 days}, {@code today}, {@code yesterday},
 * {@code last week} (7 days), {@code last month}, {@code last year}, or an ISO date or date-time.
 */
public final class Timeframe {
    private static final Pattern AMOUNT = Pattern.compile(
            "(?:last\\s+|past\\s+)?(\\d{1,5})\\s*(h|hours?|d|days?|w|weeks?|months?|y|years?)(?:\\s+ago)?");
    private static final Pattern LAST = Pattern.compile("(?:last|past)\\s+(hour|day|week|month|year)");

    private Timeframe() {
    }

    /** The start of the window {@code text} names, by {@code clock}. */
    public static Instant since(String text, Clock clock) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Instant exact = FilterValues.instant(t.toUpperCase(Locale.ROOT));
        if (exact != null) {
            return exact;
        }
        ZonedDateTime now = ZonedDateTime.now(clock.withZone(ZoneOffset.UTC));
        LocalDate today = now.toLocalDate();
        switch (t) {
            case "today" -> {
                return today.atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            case "yesterday" -> {
                return today.minusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            default -> {
            }
        }
        Matcher last = LAST.matcher(t);
        if (last.matches()) {
            return back(now, 1, last.group(1));
        }
        Matcher m = AMOUNT.matcher(t);
        if (m.matches()) {
            return back(now, Integer.parseInt(m.group(1)), m.group(2));
        }
        throw ApiException.badRequest("timeframe must be like 7d, 12h, 2 weeks, last week, yesterday, today or an "
                + "ISO date (2026-11-01), got: " + text);
    }

    private static Instant back(ZonedDateTime now, int n, String unit) {
        ZonedDateTime start = switch (unit.charAt(0)) {
            case 'h' -> now.minusHours(n);
            case 'd' -> now.minusDays(n);
            case 'w' -> now.minusWeeks(n);
            case 'm' -> now.minusMonths(n);
            default -> now.minusYears(n);
        };
        return start.toInstant();
    }
}
