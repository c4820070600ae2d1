package io.poimen.memory.security.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Strict readers for policy YAML values: a wrong type is an error, never a silent default. */
final class Yamls {
    private Yamls() {
    }

    static String string(Map<String, Object> yaml, String key, String fallback) {
        Object v = yaml.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof String s) {
            return s.isBlank() ? fallback : s.trim();
        }
        throw new IllegalArgumentException(key + " must be a string, got " + v);
    }

    /** A YAML boolean ({@code true} or {@code false}); anything else (a string "yes", a number) is an error. */
    static boolean bool(Map<String, Object> yaml, String key, boolean fallback) {
        Object v = yaml.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        throw new IllegalArgumentException(key + " must be true or false, got " + v);
    }

    static List<String> strings(Object v, String key) {
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> list)) {
            throw new IllegalArgumentException(key + " must be a list, got " + v);
        }
        List<String> out = new ArrayList<>();
        for (Object o : list) {
            if (!(o instanceof String s) || s.isBlank()) {
                throw new IllegalArgumentException(key + " must hold non-empty strings, got " + o);
            }
            out.add(s.trim());
        }
        return List.copyOf(out);
    }
}
