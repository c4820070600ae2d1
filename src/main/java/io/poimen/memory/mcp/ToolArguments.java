package io.poimen.memory.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * Checks a tool call's arguments against the tool's input schema before the tool runs, so a model that sends a
 * wrong name or type is told in one line what to change, with the status and code the REST API would answer:
 * {@code HTTP 400 bad_request: …} for a missing or unknown argument or a wrong type, {@code HTTP 422 unprocessable:
 * …} for a number out of range. Covers what the hub's schemas use: {@code required}, the types {@code string},
 * {@code integer}, {@code number}, {@code boolean}, {@code object} and {@code array}, {@code minimum} and
 * {@code maximum}. An argument the schema does not name is refused: a misspelt {@code topk} would otherwise be
 * ignored without a word.
 */
final class ToolArguments {
    private static final String BAD_REQUEST = "HTTP 400 bad_request: ";
    private static final String UNPROCESSABLE = "HTTP 422 unprocessable: ";

    private ToolArguments() {
    }

    /** The one-line refusal of {@code args} that do not fit {@code schema}, or null when they fit. */
    static String refusal(McpSchema.JsonSchema schema, Map<String, Object> args) {
        Map<String, Object> properties = schema.properties() != null ? schema.properties() : Map.of();
        for (String name : args.keySet()) {
            if (!properties.containsKey(name)) {
                return BAD_REQUEST + "unknown argument " + name + (properties.isEmpty() ? "; this tool takes none"
                        : "; this tool takes " + String.join(", ", properties.keySet()));
            }
        }
        for (String name : schema.required() != null ? schema.required() : List.<String>of()) {
            if (args.get(name) == null) {
                return BAD_REQUEST + name + " is required";
            }
        }
        for (Map.Entry<String, Object> arg : args.entrySet()) {
            String refusal = arg.getValue() == null || !(properties.get(arg.getKey()) instanceof Map<?, ?> p)
                    ? null : refusal(arg.getKey(), arg.getValue(), p);
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }

    private static String refusal(String name, Object value, Map<?, ?> property) {
        Object type = property.get("type");
        if (type == null) {
            return null;
        }
        return switch (type.toString()) {
            case "string" -> value instanceof String ? null : BAD_REQUEST + name + " must be a string";
            case "boolean" -> value instanceof Boolean ? null : BAD_REQUEST + name + " must be true or false";
            case "object" -> value instanceof Map ? null : BAD_REQUEST + name + " must be an object";
            case "array" -> value instanceof List ? null : BAD_REQUEST + name + " must be an array";
            case "integer" -> whole(value) ? range(name, (Number) value, property)
                    : BAD_REQUEST + name + " must be a whole number";
            case "number" -> value instanceof Number n ? range(name, n, property)
                    : BAD_REQUEST + name + " must be a number";
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
            return UNPROCESSABLE + name + " must be at least " + min + ", got " + value;
        }
        if (property.get("maximum") instanceof Number max && v.compareTo(new BigDecimal(max.toString())) > 0) {
            return UNPROCESSABLE + name + " must be at most " + max + ", got " + value;
        }
        return null;
    }
}
