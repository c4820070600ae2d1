package io.poimen.memory.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Generated hostile requests at the MCP endpoint {@code /mcp}, in real sessions: each caller opens one with
 * {@code initialize} (and {@code notifications/initialized}), then sends {@code tools/list} and {@code tools/call}
 * of every tool with hostile arguments (denied paths, traversal, huge and odd strings, wrong JSON types), broken
 * JSON-RPC envelopes, wrong or missing session ids, wrong content types and Accept headers, huge bodies and bad
 * UTF-8, and GET and DELETE with another caller's or an unknown session id. Each answer is checked as
 * {@link HostileRequests#check} does (no 5xx, every error JSON, no forbidden text), the JSON-RPC messages of an event
 * stream too, and a read timeout is a failure (no request may hang). A session belongs to its caller: a request
 * naming any other session is never served (no 2xx; a GET or DELETE answers the 404 of an unknown id, the same for
 * another caller's), and after the run every caller's own session still works.
 */
public final class HostileMcpRequests {
    static final String[] TOOLS = {"search_memory", "read_note", "list_skills", "build_context", "recent_changes",
            "propose_edit", "draft_status", "recent_activity", "list_directory"};
    static final Map<String, List<String>> ARGUMENTS = Map.of(
            "search_memory", List.of("project", "query", "top_k", "explain", "filters"),
            "read_note", List.of("path"),
            "list_skills", List.of(),
            "build_context", List.of("path", "budget_tokens", "hops"),
            "recent_changes", List.of("since", "limit"),
            "propose_edit", List.of("path", "content", "message"),
            "draft_status", List.of("draft_id"),
            "recent_activity", List.of("project", "timeframe", "limit"),
            "list_directory", List.of("path"));
    static final List<String> EVERY_ARGUMENT = List.of("project", "query", "top_k", "explain", "path", "hops",
            "budget_tokens", "since", "limit", "content", "message", "draft_id", "filters", "timeframe");
    static final HostileRequests.Endpoint MCP = new HostileRequests.Endpoint("POST", "/mcp");

    private final Random random;
    private final int port;
    private final List<String> callers;
    private final List<String> readPaths;
    private final HostileRequests http;
    private final Map<String, String> sessions = new LinkedHashMap<>();
    public final Map<String, Integer> statuses = new TreeMap<>();

    /** @param callers Authorization values ("" for none) that each get a session */
    public HostileMcpRequests(long seed, int port, List<String> callers, List<String> forbidden,
                              List<String> readPaths) {
        this.random = new Random(seed);
        this.port = port;
        this.callers = callers;
        this.readPaths = readPaths;
        this.http = new HostileRequests(seed, port, List::of, forbidden, readPaths);
    }

    /** Opens a session per caller, then sends {@code count} generated requests, checking each answer. */
    public int run(int count) throws IOException {
        for (String caller : callers) {
            sessions.put(caller, open(caller));
        }
        assertThat(sessions.values()).as("every caller with a valid bearer got a session").anyMatch(s -> s != null);
        int checked = 0;
        for (int i = 0; i < count; i++) {
            String caller = callers.get(random.nextInt(callers.size()));
            String label = label(caller);
            String session = session(caller);
            boolean notOwn = session != null && !session.equals(sessions.get(caller));
            String method = notOwn && random.nextInt(3) == 0 ? pick("GET", "DELETE") : "POST";
            byte[] request = method.equals("POST") ? request(caller, session)
                    : http(method, caller, session, null, method.equals("GET") ? "text/event-stream" : null,
                    new byte[0]);
            HostileRequests.Answer a = send(request);
            check(request, a);
            if (notOwn) {
                sessionNotServed(method, caller, session, a);
            }
            statuses.merge(label + " " + (method.equals("POST") ? "" : method + " ") + a.status(), 1, Integer::sum);
            checked++;
        }
        // the sessions survived every foreign DELETE and still answer their callers
        for (Map.Entry<String, String> own : sessions.entrySet()) {
            if (own.getValue() != null) {
                HostileRequests.Answer list = send(post(own.getKey(), own.getValue(), "application/json",
                        "application/json, text/event-stream", bytes("{\"jsonrpc\":\"2.0\",\"id\":9,"
                                + "\"method\":\"tools/list\"}")));
                assertThat(list.status()).as(label(own.getKey()) + "'s session after the run").isEqualTo(200);
                assertThat(list.text()).contains("search_memory");
            }
        }
        return checked;
    }

    /**
     * A request naming a session that is not the caller's is never served; without a body to refuse first (GET,
     * DELETE) it gets exactly what an id nobody has gets.
     */
    private void sessionNotServed(String method, String caller, String session, HostileRequests.Answer a)
            throws IOException {
        assertThat(a.status()).as(method + " with another's session: " + abbreviate(a.text())).isNotIn(200, 202);
        if (!method.equals("POST") && (sessions.get(caller) != null || caller.isEmpty())) {
            String unknown = java.util.UUID.randomUUID().toString();
            HostileRequests.Answer missing = send(http(method, caller, unknown, null,
                    method.equals("GET") ? "text/event-stream" : null, new byte[0]));
            assertThat(a.status()).as(method).isEqualTo(missing.status()).isIn(401, 404);
            assertThat(masked(a, session)).as(method).isEqualTo(masked(missing, unknown));
        }
    }

    private static String masked(HostileRequests.Answer a, String session) {
        return a.text().replace(session, "SESSION").replaceAll("\"(timestamp|trace_id)\"\\s*:\\s*\"[^\"]*\"", "");
    }

    /** Sends one request and reads its whole answer (an event stream to its end); a hang fails the test. */
    public HostileRequests.Answer send(byte[] request) throws IOException {
        try {
            return HostileRequests.exchange(port, request, true);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer within the read timeout: "
                    + abbreviate(new String(request, StandardCharsets.UTF_8)), e);
        }
    }

    /** The checks of the HTTP fuzz, plus: every JSON-RPC message of the answer carries no stack trace. */
    public void check(byte[] request, HostileRequests.Answer a) throws IOException {
        http.check(MCP, request, a);
        assertThat(a.status()).as(abbreviate(a.text())).isNotEqualTo(501);
        String text = a.text();
        assertThat(text).as(abbreviate(text)).doesNotContain("\tat ", "stackTrace", "className", "Exception:");
        if (a.headers().getOrDefault("content-type", "").startsWith("text/event-stream")) {
            for (String line : text.split("\n")) {
                if (line.startsWith("data:")) {
                    JsonNode m = HostileRequests.JSON.readTree(line.substring(5).trim());
                    assertThat(m.has("result") || m.path("error").path("message").isTextual()).as(line).isTrue();
                }
            }
        }
    }

    /** A session opened with initialize and its initialized notification; null if the caller was refused. */
    String open(String caller) throws IOException {
        HostileRequests.Answer init = send(post(caller, null, "application/json", "application/json, text/event-stream",
                bytes(initialize())));
        String id = init.status() == 200 ? init.headers().get("mcp-session-id") : null;
        if (id != null) {
            send(post(caller, id, "application/json", "application/json, text/event-stream",
                    bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")));
        }
        return id;
    }

    /** The session id a request of {@code caller} names: theirs mostly, none, a made-up one, or another's. */
    private String session(String caller) {
        return switch (random.nextInt(10)) {
            case 0 -> null;
            case 1 -> pick("nope", "../../x", "x".repeat(5000), "00000000-0000-0000-0000-000000000000");
            case 2 -> pick(sessions.values().stream().filter(s -> s != null).toArray(String[]::new));
            default -> sessions.get(caller);
        };
    }

    byte[] request(String caller, String session) {
        String type = random.nextInt(8) == 0 ? pick(null, "text/plain", "application/x-www-form-urlencoded",
                "application/json; charset=iso-8859-1", "%%%/garbage") : "application/json";
        String accept = random.nextInt(8) == 0 ? pick(null, "text/html", "application/json", "text/event-stream", "*/*")
                : "application/json, text/event-stream";
        byte[] body = switch (random.nextInt(14)) {
            case 0 -> bytes(envelope());
            case 1 -> invalidUtf8(toolCall());
            case 2 -> bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"search_memory\","
                    + "\"arguments\":{\"project\":\"poimen\",\"query\":\"" + "w ".repeat(400_000) + "\"}}}");
            case 3 -> bytes("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
            case 4 -> bytes(initialize());
            default -> bytes(toolCall());
        };
        return post(caller, session, type, accept, body);
    }

    private String initialize() {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}";
    }

    /** A broken JSON-RPC envelope. */
    private String envelope() {
        return pick("", "null", "[]", "[1,2]", "{}", "\"x\"", "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\"}", "{\"jsonrpc\":\"2.0\",\"id\":1}",
                "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":7}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":null}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"read_note\",\"arguments\":[]}}",
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"", "[".repeat(20_000),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///etc/passwd\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}");
    }

    /**
     * tools/call of a random tool with hostile arguments: mostly under the tool's own argument names (a call with a
     * name the tool does not take is refused before the tool runs, so such calls would not reach the routes),
     * one in eight calls under every name of every tool.
     */
    private String toolCall() {
        String tool = random.nextInt(12) == 0 ? pick("no_such_tool", "", "../read_note", "READ_NOTE")
                : TOOLS[random.nextInt(TOOLS.length)];
        List<String> names = random.nextInt(8) == 0 || !ARGUMENTS.containsKey(tool)
                ? EVERY_ARGUMENT : ARGUMENTS.get(tool);
        StringBuilder args = new StringBuilder("{");
        for (String name : names) {
            if (random.nextInt(3) > 0) {
                args.append(args.length() > 1 ? "," : "").append('"').append(name).append("\":").append(value());
            }
        }
        String arguments = random.nextInt(15) == 0 ? pick("null", "7", "\"x\"", "[]") : args.append('}').toString();
        return "{\"jsonrpc\":\"2.0\",\"id\":" + pick("1", "\"a\"", "99999999999999999999", "-1", "null")
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}}";
    }

    private String value() {
        return switch (random.nextInt(21)) {
            case 0 -> "7";
            case 1 -> "1.5";
            case 2 -> "-1";
            case 3 -> "1e309";
            case 4 -> "true";
            case 5 -> "null";
            case 6 -> "[]";
            case 7 -> "{\"a\":1}";
            case 8 -> "99999999999999999999";
            case 9 -> "\"" + "x".repeat(5000) + "\"";
            case 10 -> "\"../../../../etc/passwd\"";
            case 11 -> "\"projects/poimen/../ml-training/runbooks/gpu-node.md\"";
            case 12 -> "\"\\u0000\\u0001\\u001f\"";
            case 13 -> "\"Ünïcödé ☃ \\ud83d\\ude00 \\ud800\"";
            case 14 -> "\"%2e%2e%2fetc%2fpasswd\"";
            case 15 -> "\"" + pick("poimen", "ml-training", "rust-guide", "HEAD~1", "2000-01-01T00:00:00Z", "deadbeef")
                    + "\"";
            case 16 -> pick("{\"tags\":[\"k8s\",7]}", "{\"fields\":{\"priority\":{\"$between\":[1,\"x\"]}}}",
                    "{\"path_prefix\":\"../\"}", "{\"changed_after\":\"99999d\"}", "{\"fields\":{\"a\":{\"in\":[[]]}}}",
                    "{\"changed_after\":\"last week\",\"fields\":{\"status\":[\"draft\",null]}}", "\"7d\"",
                    "\"yesterday\"", "\"-5 days\"");
            default -> readPaths.isEmpty() ? "\"README.md\"" : "\"" + readPaths.get(random.nextInt(readPaths.size())) + "\"";
        };
    }

    byte[] post(String caller, String session, String type, String accept, byte[] body) {
        return http("POST", caller, session, type, accept, body);
    }

    byte[] http(String method, String caller, String session, String type, String accept, byte[] body) {
        StringBuilder head = new StringBuilder(method + " /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
        if (!caller.isEmpty()) {
            head.append("Authorization: ").append(caller).append("\r\n");
        }
        if (session != null) {
            head.append("Mcp-Session-Id: ").append(session).append("\r\n");
        }
        if (type != null) {
            head.append("Content-Type: ").append(type).append("\r\n");
        }
        if (accept != null) {
            head.append("Accept: ").append(accept).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = java.util.Arrays.copyOf(h, h.length + body.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    private static byte[] invalidUtf8(String json) {
        return HostileRequests.invalidUtf8At(bytes(json), json.indexOf("\"name\":\"") + 8);
    }

    private String label(String caller) {
        return caller.isEmpty() ? "anonymous" : "caller" + callers.indexOf(caller);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String pick(String... values) {
        return values[random.nextInt(values.length)];
    }

    private static String abbreviate(String s) {
        return s.length() > 600 ? s.substring(0, 600) + "…(" + s.length() + " chars)" : s;
    }

}
