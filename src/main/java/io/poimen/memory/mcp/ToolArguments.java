package io.poimen.memory.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * Checks a tool call's arguments against the tool's input schema before the tool runs, so a model that sends a
 * wrong name or type is told in one line what to change (the tool error {@code HTTP 400 bad_request: …}), as the
 * REST API would tell it. Covers what the hub's schemas use: {@code required}, the types {@code string},
 * {@code integer}, {@code number}, {@code boolean}, {@code object} and {@code array}, {@code minimum} and
 * {@code maximum}. An argument the schema does not name is refused: a misspelt {@code topk} would otherwise be
 * ignored without a word.
 */
final class ToolArguments {
    private ToolArguments() {
    }

    /** Why {@code args} do not fit {@code schema}, or null when they do. */
    static String problem(McpSchema.JsonSchema schema, Map<String, Object> args) {
        Map<String, Object> properties = schema.properties() != null ? schema.properties() : Map.of();
        for (String name : args.keySet()) {
            if (!properties.containsKey(name)) {
                return "unknown argument " + name + (properties.isEmpty() ? "; this tool takes none"
                        : "; this tool takes " + String.join(", ", properties.keySet()));
            }
        }
        for (String name : schema.required() != null ? schema.required() : List.<String>of()) {
            if (args.get(name) == null) {
                return name + " is required";
            }
        }
        for (Map.Entry<String, Object> arg : args.entrySet()) {
            String problem = arg.getValue() == null || !(properties.get(arg.getKey()) instanceof Map<?, ?> p)
                    ? null : problem(arg.getKey(), arg.getValue(), p);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String problem(String name, Object value, Map<?, ?> property) {
        Object type = property.get("type");
        if (type == null) {
            return null;
        }
        return switch (type.toString()) {
            case "string" -> value instanceof String ? null : name + " must be a string";
            case "boolean" -> value instanceof Boolean ? null : name + " must be true or false";
            case "object" -> value instanceof Map ? null : name + " must be an object";
            case "array" -> value instanceof List ? null : name + " must be an array";
            case "integer" -> whole(value) ? range(name, (Number) value, property) : name + " must be a whole number";
            case "number" -> value instanceof Number n ? range(name, n, property) : name + " must be a number";
            default -> null;
        };
    }

    private static boolean whole(Object value) {
        return value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof BigInteger;
    }

    private static String range(String name, Number value, Map<?, ?> property) {
        BigDecimal v = new BigDecimal(value.toString());
        if (property.get("minimum") instanceof Number min && v.compareTo(new BigDecimal(min.toString())) < 0) {
            return name + " must be at least " + min + ", got " + value;
        }
        if (property.get("maximum") instanceof Number max && v.compareTo(new BigDecimal(max.toString())) > 0) {
            return name + " must be at most " + max + ", got " + value;
        }
        return null;
    }
}
