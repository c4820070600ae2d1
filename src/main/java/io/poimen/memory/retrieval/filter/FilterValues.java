package io.poimen.memory.retrieval.filter;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** How a filter compares values: numbers as numbers, dates (ISO date or date-time) as instants, text as text. */
final class FilterValues {
    private FilterValues() {
    }

    /** {@code text} as an instant: {@code 2026-11-01} (midnight UTC), an ISO instant or offset date-time; or null. */
    static Instant instant(String text) {
        if (text == null) {
            return null;
        }
        String t = text.trim();
        try {
            if (t.length() == 10) {
                return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(t);
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    /** A JSON number, or null. */
    static BigDecimal number(Object value) {
        return value instanceof Number n ? new BigDecimal(n.toString()) : null;
    }

    /** Whether {@code a} and {@code b} are the same value: numbers by value, dates by instant, text ignoring case. */
    static boolean same(Object a, Object b) {
        if (a == null || b == null) {
            return false;
        }
        BigDecimal x = number(a);
        BigDecimal y = number(b);
        if (x != null || y != null) {
            return x != null && y != null && x.compareTo(y) == 0;
        }
        Instant i = a instanceof String s ? instant(s) : null;
        Instant j = b instanceof String s ? instant(s) : null;
        if (i != null && j != null) {
            return i.equals(j);
        }
        return String.valueOf(a).equalsIgnoreCase(String.valueOf(b));
    }

    /**
     * The order of a field's {@code value} against a range bound ({@code bound} a number or a date): negative, 0 or
     * positive; null when the value is not of the bound's kind (a text where a number is wanted never matches).
     */
    static Integer compare(Object value, Object bound) {
        BigDecimal b = number(bound);
        if (b != null) {
            BigDecimal v = number(value);
            return v == null ? null : v.compareTo(b);
        }
        Instant bi = instant((String) bound);
        Instant vi = value instanceof String s ? instant(s) : null;
        return vi == null ? null : vi.compareTo(bi);
    }
}
