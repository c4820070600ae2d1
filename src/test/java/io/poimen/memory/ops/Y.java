package io.poimen.memory.ops;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Null-safe navigation of parsed YAML (maps of lists of maps). */
final class Y {
    private Y() {
    }

    static Object at(Object node, String... path) {
        Object cur = node;
        for (String key : path) {
            if (!(cur instanceof Map<?, ?> m)) {
                return null;
            }
            cur = m.get(key);
        }
        return cur;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node, String... path) {
        Object v = at(node, path);
        return v instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object node, String... path) {
        Object v = at(node, path);
        return v instanceof List<?> l ? (List<Object>) l : List.of();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(Object node, String... path) {
        return list(node, path).stream().filter(Map.class::isInstance).map(o -> (Map<String, Object>) o).toList();
    }

    static String str(Object node, String... path) {
        Object v = at(node, path);
        return v == null ? null : Objects.toString(v);
    }

    static Map<String, Object> named(List<Map<String, Object>> items, String name) {
        return items.stream().filter(i -> name.equals(i.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("nothing named " + name + " in " + items));
    }
}
