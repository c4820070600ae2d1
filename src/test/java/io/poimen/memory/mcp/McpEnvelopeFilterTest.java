package io.poimen.memory.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** Each class of request {@link McpEnvelopeFilter} refuses before the MCP transport sees it, and what it lets by. */
class McpEnvelopeFilterTest {
    static final ObjectMapper JSON = new ObjectMapper();
    final McpJsonMapper mcpJson = new McpConfig().mcpJsonMapper();
    final McpEnvelopeFilter filter = new McpEnvelopeFilter(mcpJson);

    /** The answer to a POST of {@code body}, and whether the transport (the rest of the chain) was reached. */
    record Answer(int status, JsonNode json, boolean passed, MockHttpServletResponse response) {
    }

    Answer post(byte[] body) throws Exception {
        return send(request("POST", body));
    }

    Answer post(String body) throws Exception {
        return post(body.getBytes(StandardCharsets.UTF_8));
    }

    static MockHttpServletRequest request(String method, byte[] body) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, McpConfig.ENDPOINT);
        request.setContentType("application/json");
        if (body != null) {
            request.setContent(body);
        }
        return request;
    }

    Answer send(MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, response, chain);
        String text = response.getContentAsString(StandardCharsets.UTF_8);
        return new Answer(response.getStatus(), text.isEmpty() ? null : JSON.readTree(text),
                chain.getRequest() != null, response);
    }

    /** A 400 JSON-RPC error with {@code code}, the transport never reached. */
    static void refused(Answer a, int code) {
        assertThat(a.passed()).as("the transport is not reached").isFalse();
        assertThat(a.status()).isEqualTo(400);
        assertThat(a.json().path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(a.json().path("error").path("code").asInt()).isEqualTo(code);
        assertThat(a.json().path("error").path("message").asText()).isNotBlank().doesNotContain("Exception");
    }

    static String call(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    @Test
    void aBodyThatIsNotUtf8OrNotJsonIsAParseError() throws Exception {
        byte[] badUtf8 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\u00e9\"}"
                .getBytes(StandardCharsets.ISO_8859_1);
        for (Answer a : List.of(post(badUtf8), post("{\"jsonrpc\":"), post("not json"), post(""))) {
            refused(a, -32700);
            assertThat(a.json().get("id").isNull()).isTrue();
        }
    }

    @Test
    void aBodyNestedTooDeepOrWithAHugeNumberIsAParseErrorNotAStackOverflow() throws Exception {
        String deep = "[".repeat(50_000) + "]".repeat(50_000);
        refused(post(call("tools/call", "{\"name\":\"read_note\",\"arguments\":{\"path\":" + deep + "}}")),
                -32700);
        refused(post("{\"jsonrpc\":\"2.0\",\"id\":" + "9".repeat(100_000) + ",\"method\":\"ping\"}"), -32700);
    }

    @Test
    void aBodyThatIsNotOneJsonObjectIsAnInvalidRequest() throws Exception {
        for (String body : List.of("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", "\"ping\"", "42", "null")) {
            refused(post(body), -32600);
        }
    }

    @Test
    void aWrongOrMissingJsonrpcVersionIsAnInvalidRequest() throws Exception {
        for (String body : List.of("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}", "{\"id\":1,\"method\":\"ping\"}")) {
            Answer a = post(body);
            refused(a, -32600);
            assertThat(a.json().path("error").path("message").asText()).contains("jsonrpc");
            assertThat(a.json().get("id").asInt()).as("a valid id is echoed").isEqualTo(1);
        }
    }

    @Test
    void anIdOfAWrongTypeIsAnInvalidRequestAndIsNotEchoed() throws Exception {
        for (String id : List.of("{}", "[1]", "1.5", "true", "null", "123456789012345678901234567890")) {
            Answer a = post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
            refused(a, -32600);
            assertThat(a.json().path("error").path("message").asText()).contains("\"id\"");
            assertThat(a.json().get("id").isNull()).isTrue();
        }
    }

    @Test
    void aMethodThatIsNotAStringAndAClientResponseAreInvalidRequests() throws Exception {
        for (String body : List.of("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":42}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":{\"name\":\"ping\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-1,\"message\":\"no\"}}")) {
            Answer a = post(body);
            refused(a, -32600);
            assertThat(a.json().get("id").asText()).isEqualTo("a");
        }
    }

    @Test
    void paramsOfTheWrongShapeAreInvalidParams() throws Exception {
        List<String> bodies = List.of(
                call("ping", "[1,2]"),
                call("tools/list", "\"page-2\""),
                call("initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":\"all\","
                        + "\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}"),
                call("initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":[1]}"),
                call("tools/call", "{\"name\":42,\"arguments\":{}}"),
                call("tools/call", "{\"arguments\":{}}"),
                call("tools/call", "{\"name\":\"read_note\",\"arguments\":[\"projects/a.md\"]}"),
                call("tools/call", "{\"name\":\"read_note\",\"arguments\":\"projects/a.md\"}"),
                call("tools/list", "{\"cursor\":{\"page\":2}}"),
                call("logging/setLevel", "{\"level\":\"loudest\"}"),
                call("logging/setLevel", "{\"level\":[\"debug\"]}"));
        for (String body : bodies) {
            Answer a = post(body);
            refused(a, -32602);
            assertThat(a.json().get("id").asInt()).as(body).isEqualTo(7);
        }
    }

    /** The fuzz found it: a tools/call without params reached the transport, which answered 500 (a null request). */
    @Test
    void aMethodWhoseParamsAreRequiredWithoutParamsIsInvalidParams() throws Exception {
        for (String method : List.of("tools/call", "initialize", "logging/setLevel")) {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\"}";
            Answer a = post(body);
            refused(a, -32602);
            assertThat(a.json().path("error").path("message").asText()).as(body).contains(method, "missing");
        }
    }

    @Test
    void methodsOtherThanGetPostAndDeleteAreA405JsonAnswerWithAllow() throws Exception {
        for (String method : List.of("PUT", "PATCH", "OPTIONS", "HEAD", "TRACE", "PROPFIND")) {
            Answer a = send(request(method, "{}".getBytes(StandardCharsets.UTF_8)));
            assertThat(a.passed()).isFalse();
            assertThat(a.status()).as(method).isEqualTo(405);
            assertThat(a.response().getHeader("Allow")).isEqualTo("GET, POST, DELETE");
            assertThat(a.json().path("error").asText()).isEqualTo("method_not_allowed");
            assertThat(a.json().path("message").asText()).contains(method);
        }
        for (String method : List.of("GET", "DELETE")) {
            assertThat(send(request(method, null)).passed()).as(method + " goes on to the transport").isTrue();
        }
    }

    @Test
    void aGoodMessageReachesTheTransportWithItsBodyParsedOnce() throws Exception {
        String body = call("tools/call", "{\"name\":\"read_note\",\"arguments\":{\"path\":\"README.md\"}}");
        McpJsonMapper transportMapper = new McpEnvelopeFilter.ParsedBodies(mcpJson);
        TypeRef<HashMap<String, Object>> asMap = new TypeRef<>() {
        };
        List<Object> reads = new ArrayList<>();
        AtomicReference<String> seenBody = new AtomicReference<>();
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request("POST", body.getBytes(StandardCharsets.UTF_8)), response, (req, res) -> {
            try {
                String text = new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                seenBody.set(text);
                reads.add(transportMapper.readValue(text, asMap));
                reads.add(transportMapper.readValue(text, asMap));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(seenBody.get()).isEqualTo(body);
        // the filter's untyped parse is a LinkedHashMap; a parse into HashMap<String, Object> is a plain HashMap
        assertThat(reads.get(0)).as("the transport's read is the filter's parse").isExactlyInstanceOf(
                LinkedHashMap.class).isEqualTo(reads.get(1));
        assertThat(reads.get(1)).as("handed on once only: a second read parses").isExactlyInstanceOf(HashMap.class);
        assertThat(transportMapper.readValue(body, asMap)).as("outside a filtered request it parses")
                .isExactlyInstanceOf(HashMap.class).containsEntry("method", "tools/call");
    }
}
