package io.poimen.memory.index.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.util.List;

/** Lists of strings as JSON array text in a varchar column; null column = empty list. */
final class JsonStringList {

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    private final ObjectMapper mapper = new ObjectMapper();
    private final ObjectReader strings = mapper.readerFor(STRINGS);

    String write(List<String> values) {
        if (values == null) {
            return null;
        }
        try {
            return mapper.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write list as JSON: " + values, e);
        }
    }

    List<String> read(String text) {
        if (text == null || text.equals("[]")) {
            return List.of();
        }
        try {
            return List.copyOf(strings.<List<String>>readValue(text));
        } catch (JsonProcessingException | NullPointerException e) {
            throw new IllegalStateException("stored list is not a JSON array of strings: " + text, e);
        }
    }
}
