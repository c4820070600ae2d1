package io.poimen.memory.security.audit;

import io.poimen.memory.api.ApiException;
import java.sql.Array;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Header;

/**
 * {@code GET /memory/audit?user=&decision=&resource=&since=&limit=}: the query parameters checked and turned into
 * the named parameters of the {@code audit-query} SQL, and its rows into JSON entries (newest first).
 */
public class AuditQuery {
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    public Map<String, Object> parameters(@Header("user") String user, @Header("decision") String decision,
                                          @Header("resource") String resource, @Header("since") String since,
                                          @Header("limit") String limit) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("user", blankToNull(user));
        String d = blankToNull(decision);
        if (d != null && !d.equals("allow") && !d.equals("deny")) {
            throw ApiException.badRequest("decision must be allow or deny, got " + d);
        }
        p.put("decision", d);
        p.put("resource", blankToNull(resource));
        p.put("since", Timestamp.from(since(blankToNull(since))));
        p.put("limit", limit(blankToNull(limit)));
        return p;
    }

    public List<Map<String, Object>> entries(List<Map<String, Object>> rows) throws SQLException {
        List<Map<String, Object>> out = new java.util.ArrayList<>();
        for (Map<String, Object> row : rows) {
            Map<String, Object> e = new LinkedHashMap<>();
            for (Map.Entry<String, Object> col : row.entrySet()) {
                e.put(col.getKey().toLowerCase(java.util.Locale.ROOT), json(col.getValue()));
            }
            out.add(e);
        }
        return out;
    }

    private static Object json(Object v) throws SQLException {
        if (v instanceof Array a) {
            return json(a.getArray());
        }
        if (v instanceof Object[] arr) {
            return Arrays.stream(arr).map(String::valueOf).toList();
        }
        if (v instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        if (v instanceof Timestamp t) {
            return t.toInstant().toString();
        }
        if (v instanceof java.time.OffsetDateTime t) {
            return t.toInstant().toString();
        }
        if (v instanceof java.time.LocalDateTime t) {
            return t.toInstant(ZoneOffset.UTC).toString();
        }
        return v;
    }

    private static Instant since(String s) {
        if (s == null) {
            return Instant.EPOCH;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            try {
                return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (DateTimeParseException e2) {
                throw ApiException.badRequest("since must be an ISO-8601 instant or date, got " + s);
            }
        }
    }

    private static int limit(String s) {
        if (s == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int n = Integer.parseInt(s);
            if (n >= 1 && n <= MAX_LIMIT) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest("limit must be between 1 and " + MAX_LIMIT + ", got " + s);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
