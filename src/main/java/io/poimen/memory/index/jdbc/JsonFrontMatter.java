package io.poimen.memory.index.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A note's front matter as JSON object text: YAML's values kept as JSON has them (text, numbers, booleans, lists,
 * maps); a YAML date or time becomes ISO text ({@code 2026-11-01}, or the instant when it has a time of day), any
 * other value its text. Null column = no front matter.
 */
final class JsonFrontMatter {
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    private final ObjectMapper mapper = new ObjectMapper();

    String write(Map<String, Object> raw) {
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        try {
            return mapper.writeValueAsString(plain(raw));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write front matter as JSON", e);
        }
    }

    Map<String, Object> read(String text) {
        if (text == null || text.isBlank()) {
            return Map.of();
        }
        try {
            return mapper.readValue(text, MAP);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored front matter is not a JSON object", e);
        }
    }

    private static Object plain(Object value) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Date d) {
            Instant i = d.toInstant();
            return i.atOffset(ZoneOffset.UTC).toLocalTime().toSecondOfDay() == 0 && i.getNano() == 0
                    ? i.atOffset(ZoneOffset.UTC).toLocalDate().toString() : i.toString();
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), plain(v)));
            return out;
        }
        if (value instanceof Iterable<?> items) {
            List<Object> out = new ArrayList<>();
            items.forEach(v -> out.add(plain(v)));
            return out;
        }
        return String.valueOf(value);
    }
}
