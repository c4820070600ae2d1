package io.poimen.memory.retrieval.filter;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.vault.FrontMatterParser;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code filters} of a search: which notes may answer. Every filter given must hold (AND):
 * <ul>
 *   <li>{@code tags}: the note carries each tag, in front matter or inline ({@code k8s} also matches
 *   {@code k8s/networking}, as Obsidian's tag search does);</li>
 *   <li>{@code path_prefix}: the note's vault path starts with it ({@code projects/poimen/runbooks/});</li>
 *   <li>{@code changed_after} (inclusive) and {@code changed_before} (exclusive): an ISO date or date-time, or a
 *   timeframe ({@code 7d}, {@code last week}); against the note's time ({@link NoteFacts#changed});</li>
 *   <li>{@code fields}: front-matter field → a value (equals), a list (one of) or an object of operators
 *   {@code eq}, {@code in}, {@code gt}, {@code gte}, {@code lt}, {@code lte}, {@code between} (each also with a
 *   leading {@code $}). Ranges take numbers or ISO dates; a field holding a list matches when one item does;
 *   text compares ignoring case.</li>
 * </ul>
 * A malformed filter is the caller's 400, naming the filter.
 */
public record SearchFilters(List<String> tags, String pathPrefix, Instant changedAfter, Instant changedBefore,
                            Map<String, List<Condition>> fields) {
    public static final SearchFilters NONE = new SearchFilters(List.of(), null, null, null, Map.of());
    static final int MAX_VALUES = 100;
    private static final Set<String> KEYS = Set.of("tags", "path_prefix", "changed_after", "changed_before", "fields");
    private static final Set<String> OPERATORS = Set.of("eq", "in", "gt", "gte", "lt", "lte", "between");
    private static final Pattern FIELD = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}");

    /** One operator on a field: {@code eq} and {@code in} take values, the ranges bounds (numbers or dates). */
    public record Condition(String operator, List<Object> operands) {
    }

    public boolean none() {
        return tags.isEmpty() && pathPrefix == null && changedAfter == null && changedBefore == null
                && fields.isEmpty();
    }

    /** Whether the note passes every filter. */
    public boolean matches(NoteFacts note) {
        if (note == null) {
            return false;
        }
        if (pathPrefix != null && !note.path().startsWith(pathPrefix)) {
            return false;
        }
        for (String tag : tags) {
            if (note.tags().stream().noneMatch(t -> t.equals(tag) || t.startsWith(tag + "/"))) {
                return false;
            }
        }
        if ((changedAfter != null || changedBefore != null) && note.changed() == null) {
            return false;
        }
        if (changedAfter != null && note.changed().isBefore(changedAfter)) {
            return false;
        }
        if (changedBefore != null && !note.changed().isBefore(changedBefore)) {
            return false;
        }
        for (Map.Entry<String, List<Condition>> field : fields.entrySet()) {
            Object value = note.fields().get(field.getKey());
            List<?> values = value instanceof List<?> list ? list : value == null ? List.of() : List.of(value);
            for (Condition c : field.getValue()) {
                if (values.stream().noneMatch(v -> holds(c, v))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean holds(Condition c, Object value) {
        return switch (c.operator()) {
            case "eq", "in" -> c.operands().stream().anyMatch(o -> FilterValues.same(value, o));
            case "between" -> ordered(value, c.operands().get(0), 0) && ordered(value, c.operands().get(1), 1);
            case "gt" -> ordered(value, c.operands().get(0), 2);
            case "gte" -> ordered(value, c.operands().get(0), 0);
            case "lt" -> ordered(value, c.operands().get(0), -2);
            default -> ordered(value, c.operands().get(0), 1); // lte
        };
    }

    /** {@code how}: 2 greater, 0 at least, -2 less, 1 at most. */
    private static boolean ordered(Object value, Object bound, int how) {
        Integer cmp = FilterValues.compare(value, bound);
        if (cmp == null) {
            return false;
        }
        return switch (how) {
            case 2 -> cmp > 0;
            case 0 -> cmp >= 0;
            case -2 -> cmp < 0;
            default -> cmp <= 0;
        };
    }

    /** The filters of a request's {@code filters} object (null or empty: none). */
    public static SearchFilters parse(Object raw, Clock clock) {
        if (raw == null) {
            return NONE;
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw bad("filters", "must be an object with tags, path_prefix, changed_after, changed_before, fields");
        }
        for (Object key : map.keySet()) {
            if (!KEYS.contains(String.valueOf(key))) {
                throw bad("filters." + key, "is not a filter; the filters are tags, path_prefix, changed_after, "
                        + "changed_before and fields");
            }
        }
        Instant after = time(map.get("changed_after"), "filters.changed_after", clock);
        Instant before = time(map.get("changed_before"), "filters.changed_before", clock);
        if (after != null && before != null && !after.isBefore(before)) {
            throw bad("filters.changed_after", "must be before filters.changed_before");
        }
        return new SearchFilters(tags(map.get("tags")), prefix(map.get("path_prefix")), after, before,
                fields(map.get("fields")));
    }

    private static List<String> tags(Object raw) {
        if (raw == null) {
            return List.of();
        }
        List<?> items = raw instanceof List<?> l ? l : List.of(raw);
        if (items.size() > MAX_VALUES) {
            throw bad("filters.tags", "takes at most " + MAX_VALUES + " tags");
        }
        List<String> out = new ArrayList<>();
        for (Object item : items) {
            String tag = item instanceof String s ? FrontMatterParser.normalizeTag(s) : null;
            if (tag == null || tag.chars().anyMatch(Character::isWhitespace)) {
                throw bad("filters.tags", "must be tag names (text without spaces, # optional), got " + item);
            }
            out.add(tag);
        }
        return List.copyOf(out);
    }

    private static String prefix(Object raw) {
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof String s) || s.isBlank()) {
            throw bad("filters.path_prefix", "must be a vault folder or path prefix such as projects/poimen/runbooks/");
        }
        try {
            VaultPathGuard.check(s);
        } catch (ApiException e) {
            throw bad("filters.path_prefix", e.getMessage());
        }
        return s;
    }

    private static Instant time(Object raw, String name, Clock clock) {
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof String s)) {
            throw bad(name, "must be an ISO date (2026-11-01), date-time or a timeframe such as 7d, got " + raw);
        }
        try {
            return Timeframe.since(s, clock);
        } catch (ApiException e) {
            throw bad(name, e.getMessage());
        }
    }

    private static Map<String, List<Condition>> fields(Object raw) {
        if (raw == null) {
            return Map.of();
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw bad("filters.fields", "must be an object: front-matter field → value, list or operators");
        }
        Map<String, List<Condition>> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String field = String.valueOf(e.getKey());
            String name = "filters.fields." + field;
            if (!FIELD.matcher(field).matches()) {
                throw bad(name, "is not a front-matter field name (letters, digits, '_', '-', '.')");
            }
            out.put(field, conditions(name, e.getValue()));
        }
        return out;
    }

    private static List<Condition> conditions(String name, Object raw) {
        if (raw instanceof Map<?, ?> ops) {
            if (ops.isEmpty()) {
                throw bad(name, "needs an operator: eq, in, gt, gte, lt, lte or between");
            }
            List<Condition> out = new ArrayList<>();
            for (Map.Entry<?, ?> op : ops.entrySet()) {
                String operator = String.valueOf(op.getKey());
                operator = operator.startsWith("$") ? operator.substring(1) : operator;
                if (!OPERATORS.contains(operator)) {
                    throw bad(name + "." + op.getKey(), "is not an operator; use eq, in, gt, gte, lt, lte or between");
                }
                out.add(condition(name + "." + op.getKey(), operator, op.getValue()));
            }
            return List.copyOf(out);
        }
        return List.of(condition(name, raw instanceof List<?> ? "in" : "eq", raw));
    }

    private static Condition condition(String name, String operator, Object raw) {
        switch (operator) {
            case "eq" -> {
                return new Condition(operator, List.of(scalar(name, raw)));
            }
            case "in" -> {
                if (!(raw instanceof List<?> list) || list.isEmpty() || list.size() > MAX_VALUES) {
                    throw bad(name, "takes a list of 1 to " + MAX_VALUES + " values");
                }
                return new Condition(operator, list.stream().map(v -> scalar(name, v)).toList());
            }
            case "between" -> {
                if (!(raw instanceof List<?> list) || list.size() != 2) {
                    throw bad(name, "takes two bounds [low, high], numbers or ISO dates");
                }
                Object low = bound(name, list.get(0));
                Object high = bound(name, list.get(1));
                if ((low instanceof Number) != (high instanceof Number)) {
                    throw bad(name, "takes two numbers or two dates, got " + list);
                }
                return new Condition(operator, List.of(low, high));
            }
            default -> {
                return new Condition(operator, List.of(bound(name, raw)));
            }
        }
    }

    private static Object scalar(String name, Object raw) {
        if (raw instanceof String || raw instanceof Boolean || finite(raw)) {
            return raw;
        }
        throw bad(name, "takes text, a number or true/false, got " + raw);
    }

    private static Object bound(String name, Object raw) {
        if (finite(raw) || (raw instanceof String s && FilterValues.instant(s) != null)) {
            return raw;
        }
        throw bad(name, "takes a number or an ISO date (2026-11-01), got " + raw);
    }

    private static boolean finite(Object raw) {
        return raw instanceof Number n && Double.isFinite(n.doubleValue());
    }

    private static ApiException bad(String field, String message) {
        return ApiException.badRequest(field + " " + message);
    }
}
