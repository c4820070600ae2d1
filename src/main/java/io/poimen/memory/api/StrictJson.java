package io.poimen.memory.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Request bodies read strictly: a JSON value of the wrong type is a 400 naming the field ({@code "query": 123},
 * {@code "top_k": 1.5}, {@code "top_k": "5"}), never coerced. Unknown fields are allowed (older and newer clients).
 */
public final class StrictJson {
    private StrictJson() {
    }

    /** A copy of the application's mapper (naming, modules) that refuses every scalar coercion. */
    public static ObjectMapper mapper(ObjectMapper base) {
        ObjectMapper m = base.copy();
        m.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        m.configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false);
        m.configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true);
        m.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        m.configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);
        for (LogicalType t : new LogicalType[] {LogicalType.Textual, LogicalType.Integer, LogicalType.Float,
                LogicalType.Boolean}) {
            m.coercionConfigFor(t)
                    .setCoercion(CoercionInputShape.Integer, t == LogicalType.Integer || t == LogicalType.Float
                            ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, t == LogicalType.Float
                            ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, t == LogicalType.Boolean
                            ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.String, t == LogicalType.Textual
                            ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, t == LogicalType.Textual
                            ? CoercionAction.TryConvert : CoercionAction.Fail);
        }
        return m;
    }

    /** Reads {@code body} as {@code type}; any failure is a 400 whose message names the field and the type wanted. */
    public static <T> T read(ObjectMapper strict, byte[] body, Class<T> type, String what) {
        try {
            T value = strict.readValue(body, type);
            if (value == null) {
                throw ApiException.badRequest(what + " must be a JSON object, got null");
            }
            return value;
        } catch (IOException e) {
            throw error(e, what);
        }
    }

    /** The 400 for a body that could not be read as JSON of the expected shape. */
    public static ApiException error(IOException e, String what) {
        if (e instanceof MismatchedInputException m && !(e instanceof UnrecognizedPropertyException)) {
            String field = field(m);
            String wanted = wanted(m.getTargetType());
            if (field.isEmpty()) {
                return ApiException.badRequest(what + " must be a JSON object");
            }
            return ApiException.badRequest(field + " must be " + wanted);
        }
        String detail = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        return ApiException.badRequest("malformed " + what + ": " + detail);
    }

    private static String field(JsonMappingException e) {
        return e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String wanted(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == String.class || CharSequence.class.isAssignableFrom(type)) {
            return "a string";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "a JSON object";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a JSON array";
        }
        return "of type " + type.getSimpleName();
    }
}
