package io.poimen.memory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.poimen.memory.retrieval.QueryRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Wrong JSON types are a 400 naming the field, never coerced (issue 12 item 12). */
class StrictJsonTest {
    static final ObjectMapper STRICT = StrictJson.mapper(
            new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"project\":\"p\",\"query\":123}|query must be a string",
            "{\"project\":\"p\",\"query\":true}|query must be a string",
            "{\"project\":\"p\",\"query\":[\"a\"]}|query must be a string",
            "{\"project\":\"p\",\"query\":{\"a\":1}}|query must be a string",
            "{\"project\":5,\"query\":\"q\"}|project must be a string",
            "{\"project\":\"p\",\"query\":\"q\",\"top_k\":1.5}|top_k must be a whole number",
            "{\"project\":\"p\",\"query\":\"q\",\"top_k\":\"5\"}|top_k must be a whole number",
            "{\"project\":\"p\",\"query\":\"q\",\"top_k\":true}|top_k must be a whole number",
            "{\"project\":\"p\",\"query\":\"q\",\"budget_tokens\":\"100\"}|budget_tokens must be a whole number",
            "{\"project\":\"p\",\"query\":\"q\",\"weights\":{\"semantic\":\"0.5\"}}|weights.semantic must be a number",
            "{\"project\":\"p\",\"query\":\"q\",\"weights\":[1]}|weights must be a JSON object",
            "{\"project\":\"p\",\"query\":\"q\",\"fusion\":1}|fusion must be a string",
            "[1,2]|query JSON must be a JSON object",
            "\"text\"|query JSON must be a JSON object",
            "{\"project\":\"p\",\"query\":\"q\"} trailing|malformed query JSON"})
    void refusesWrongTypesNamingTheField(String body, String message) {
        assertThatThrownBy(() -> StrictJson.read(STRICT, body.getBytes(StandardCharsets.UTF_8), QueryRequest.class,
                "query JSON"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).startsWith(message);
                });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"project\":\"p\",\"query\":\"q\",\"top_k\":5,\"weights\":{\"semantic\":1}}|5",
            "{\"project\":\"p\",\"query\":\"q\",\"unknown_field\":[1]}|"})
    void acceptsTheRightTypes(String body, Integer topK) {
        QueryRequest r = StrictJson.read(STRICT, body.getBytes(StandardCharsets.UTF_8), QueryRequest.class, "query");
        assertThat(r.query()).isEqualTo("q");
        assertThat(r.topK()).isEqualTo(topK);
    }

    @org.junit.jupiter.api.Test
    void bytesThatAreNotUtf8AreABadRequest() {
        byte[] body = {'{', '"', 'q', '"', ':', '"', (byte) 0xff, (byte) 0xfe, '"', '}'};
        assertThatThrownBy(() -> StrictJson.read(STRICT, body, QueryRequest.class, "query JSON"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
    }
}
