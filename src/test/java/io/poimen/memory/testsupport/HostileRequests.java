package io.poimen.memory.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Generated hostile HTTP requests against every endpoint of the hub, over a raw socket (so that any method, header,
 * Host and byte sequence goes out as generated), and the checks on each answer: no 5xx (503 only as a named
 * "unavailable" error of a feature that is not configured), every error a JSON object {@code {error, message}},
 * and no forbidden text in any answer unless the request itself carried it (an error may echo the caller's input).
 */
public final class HostileRequests {
    /** 503 codes of features a test hub runs without (no Forgejo, no webhook secret): by design, not a failure. */
    static final Set<String> UNCONFIGURED = Set.of("grc_unavailable", "webhook_unavailable", "forgejo_unavailable");
    static final ObjectMapper JSON = new ObjectMapper();
    static final String[] METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE"};
    static final String[] PARAMS = {"project", "path", "pr", "agent_id", "session_id", "limit", "user", "decision",
            "resource", "since", "q", "query", "id", "timeframe"};

    public record Endpoint(String method, String path) {
    }

    public record Answer(int status, Map<String, String> headers, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Random random;
    private final int port;
    private final Supplier<List<String>> tokens;
    private final List<String> forbidden;
    private final List<String> readPaths;
    public final Map<String, Integer> statuses = new TreeMap<>();

    /**
     * @param tokens    bearer tokens to pick from (an empty list: no Authorization unless generated)
     * @param forbidden texts no answer may contain unless the request did
     * @param readPaths vault paths to aim read parameters at (denied ones included)
     */
    public HostileRequests(long seed, int port, Supplier<List<String>> tokens, List<String> forbidden,
                           List<String> readPaths) {
        this.random = new Random(seed);
        this.port = port;
        this.tokens = tokens;
        this.forbidden = forbidden;
        this.readPaths = readPaths;
    }

    /** Every operation of the OpenAPI document, plus the Spring MVC endpoints it does not list. */
    public static List<Endpoint> endpoints(JsonNode openApi) {
        List<Endpoint> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = openApi.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> p = paths.next();
            for (Iterator<String> methods = p.getValue().fieldNames(); methods.hasNext(); ) {
                String m = methods.next().toUpperCase();
                if (List.of(METHODS).contains(m)) {
                    out.add(new Endpoint(m, p.getKey()));
                }
            }
        }
        out.add(new Endpoint("GET", "/memory/agents/stream"));
        out.add(new Endpoint("GET", "/memory/openapi.json"));
        out.add(new Endpoint("GET", "/memory/no-such-endpoint"));
        out.add(new Endpoint("GET", "/actuator/health"));
        return out;
    }

    /** Sends {@code count} generated requests spread over {@code endpoints}, checking each answer. */
    public int run(List<Endpoint> endpoints, int count) throws IOException {
        int checked = 0;
        for (int i = 0; i < count; i++) {
            Endpoint e = endpoints.get(random.nextInt(endpoints.size()));
            byte[] request = request(e);
            Answer a = send(request);
            check(e, request, a);
            statuses.merge(e.method() + " " + e.path() + " " + a.status(), 1, Integer::sum);
            checked++;
        }
        return checked;
    }

    byte[] request(Endpoint e) {
        String method = random.nextInt(6) == 0 ? pick(METHODS) : e.method();
        String target = target(e.path());
        Map<String, String> headers = headers();
        byte[] body = "GET".equals(method) || "HEAD".equals(method) ? (random.nextInt(10) == 0 ? body(e) : null)
                : body(e);
        String type = contentType();
        if (type != null) {
            headers.put("Content-Type", type);
        }
        if (body != null) {
            headers.put("Content-Length", Integer.toString(body.length));
        }
        headers.put("Connection", "close");
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        if (body == null) {
            return h;
        }
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    /**
     * Sends {@code perEndpoint} generated requests with a body over its endpoint's cap (declared and sent, chunked, or
     * only declared) to each of {@code endpoints}, the headers generated as for any request, and checks each answer:
     * never a success, the API's JSON errors, the body never echoed. Counted in {@link #statuses} as
     * {@code over-cap METHOD path status}; returns the number of requests.
     */
    public int runOverCaps(List<HugeBodies.BodyEndpoint> endpoints, ToLongFunction<HugeBodies.BodyEndpoint> cap,
                           int perEndpoint) throws Exception {
        int sent = 0;
        for (HugeBodies.BodyEndpoint be : endpoints) {
            for (int i = 0; i < perEndpoint; i++) {
                String method = random.nextInt(6) == 0 ? pick(METHODS) : be.method();
                String target = target(be.path());
                Map<String, String> headers = headers();
                String type = random.nextInt(3) == 0 ? contentType() : be.contentType();
                if (type != null) {
                    headers.put("Content-Type", type);
                }
                if (be.path().equals("/mcp")) {
                    headers.put("Accept", "application/json, text/event-stream");
                }
                long limit = cap.applyAsLong(be);
                long length = limit + 1 + (long) (random.nextDouble() * limit);
                HugeBodies.Sent s = switch (random.nextInt(3)) {
                    case 0 -> HugeBodies.send(port, method, target, headers, length, -1, false);
                    case 1 -> HugeBodies.send(port, method, target, headers, length, -1, true);
                    default -> HugeBodies.send(port, method, target, headers, 0, length * 16, false);
                };
                StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
                headers.forEach((k, v) -> request.append(k).append(": ").append(v).append("\r\n"));
                Endpoint e = new Endpoint(be.method(), be.path());
                String what = "over the cap (" + length + " bytes): " + e + " → " + s.answer().status() + ": "
                        + abbreviate(s.answer().text());
                assertThat(s.answer().status()).as(what).isGreaterThanOrEqualTo(400);
                check(e, request.toString().getBytes(StandardCharsets.ISO_8859_1), s.answer());
                statuses.merge("over-cap " + method + " " + be.path() + " " + s.answer().status(), 1, Integer::sum);
                sent++;
            }
        }
        return sent;
    }

    /** Every one of {@code endpoints} answered at least one of {@link #runOverCaps}' requests with its own method 413. */
    public void assertEachRefusedABodyOverItsCap(List<HugeBodies.BodyEndpoint> endpoints) {
        for (HugeBodies.BodyEndpoint e : endpoints) {
            assertThat(statuses).as("%s %s refused a body over its cap", e.method(), e.path())
                    .containsKey("over-cap " + e.method() + " " + e.path() + " 413");
        }
    }

    /** Host, authorization, origin and other generated headers of one request. */
    private Map<String, String> headers() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", random.nextInt(12) == 0 ? pick(new String[] {"evil.example", "evil.example:" + port,
                "127.0.0.1.evil.example", "localhost:" + port, "[::1]:" + port, "0.0.0.0"}) : "127.0.0.1:" + port);
        List<String> valid = tokens.get();
        int auth = random.nextInt(10);
        if (auth < 6 && !valid.isEmpty()) {
            headers.put("Authorization", "Bearer " + valid.get(random.nextInt(valid.size())));
        } else if (auth == 6) {
            headers.put("Authorization", "Bearer " + "a".repeat(20_000));
        } else if (auth == 7) {
            headers.put("Authorization", pick(new String[] {"Bearer", "Basic YWRtaW46YWRtaW4=", "Bearer x.y.z",
                    "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.", "bearer " + (valid.isEmpty() ? "x" : valid.get(0))
                    + "tampered"}));
        }
        if (random.nextInt(8) == 0) {
            headers.put("Origin", pick(new String[] {"http://evil.example", "null", "http://localhost:" + port}));
        }
        if (random.nextInt(10) == 0) {
            headers.put(pick(new String[] {"X-Request-Id", "traceparent", "X-Forwarded-Host", "X-Forgejo-Signature",
                    "Accept", "X-Huge"}), hostileHeaderValue());
        }
        if (random.nextInt(40) == 0) {
            headers.put("X-Padding", "p".repeat(70_000)); // over the header limit: Tomcat answers
        }
        return headers;
    }

    private String target(String template) {
        String path = template;
        while (path.contains("{")) {
            int a = path.indexOf('{');
            int b = path.indexOf('}', a);
            path = path.substring(0, a) + enc(hostileValue()) + path.substring(b + 1);
        }
        if (random.nextInt(15) == 0) {
            path = path + pick(new String[] {"/", "/..", "/%2e%2e/%2e%2e/etc/passwd", ";jsessionid=x", "%00",
                    "/../../actuator/env"});
        }
        StringBuilder q = new StringBuilder();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            q.append(q.isEmpty() ? "?" : "&").append(pick(PARAMS)).append('=').append(enc(hostileValue()));
        }
        if (random.nextInt(20) == 0) {
            q.append(q.isEmpty() ? "?" : "&").append(pick(new String[] {"%zz", "a=%", "=x", "path=%ff%fe",
                    "project=%00"}));
        }
        return path + q;
    }

    String hostileValue() {
        return switch (random.nextInt(16)) {
            case 0 -> "x".repeat(5000);
            case 1 -> "../../../../etc/passwd";
            case 2 -> "%2e%2e%2f%2e%2e%2fetc%2fpasswd";
            case 3 -> "projects/poimen/../ml-training/index.md";
            case 4 -> readPaths.isEmpty() ? "a" : readPaths.get(random.nextInt(readPaths.size()));
            case 5 -> "ml-training";
            case 6 -> "-1";
            case 7 -> "1e309";
            case 8 -> "";
            case 9 -> "\u0000\u0001\u001f";
            case 10 -> "Ünïcödé ☃ \uD83D\uDE00";
            case 11 -> "<script>alert(1)</script>";
            case 12 -> "' or 1=1 --";
            case 13 -> "99999999999999999999";
            case 14 -> "poimen";
            default -> "/etc/passwd";
        };
    }

    private String hostileHeaderValue() {
        return switch (random.nextInt(5)) {
            case 0 -> "v".repeat(9000);
            case 1 -> "00-zzzz-yyyy-01";
            case 2 -> "text/html";
            case 3 -> "\u00ff\u00fe";
            default -> "sha256=deadbeef";
        };
    }

    private String contentType() {
        return switch (random.nextInt(12)) {
            case 0 -> null;
            case 1 -> "text/plain";
            case 2 -> "application/x-www-form-urlencoded";
            case 3 -> "multipart/form-data; boundary=zz";
            case 4 -> "application/json; charset=iso-8859-1";
            case 5 -> "%%%/garbage";
            case 6 -> "application/xml";
            default -> "application/json";
        };
    }

    private byte[] body(Endpoint e) {
        String valid = switch (e.path()) {
            case "/memory/query" -> "{\"project\":\"" + pick(new String[] {"poimen", "ml-training", "rust-guide"})
                    + "\",\"query\":\"" + pick(new String[] {"gpu node secret", "kubectl pods", "ownership"})
                    + "\",\"agent_id\":\"fuzz\"}";
            case "/memory/agents/events" -> "{\"agent_id\":\"fuzz\",\"type\":\"tool_invoked\",\"payload\":{\"path\":\""
                    + pick(readPaths.toArray(String[]::new)) + "\"}}";
            case "/memory/grc/draft" -> "{\"document_path\":\"projects/poimen/fuzz.md\",\"content\":\"# fuzz\","
                    + "\"message\":\"fuzz\"}";
            default -> "{\"ref\":\"refs/heads/main\"}";
        };
        return switch (random.nextInt(20)) {
            case 0 -> new byte[0];
            case 1 -> "null".getBytes(StandardCharsets.UTF_8);
            case 2 -> "[1,2,3]".getBytes(StandardCharsets.UTF_8);
            case 3 -> valid.substring(0, valid.length() / 2).getBytes(StandardCharsets.UTF_8);
            case 4 -> withInvalidUtf8(valid);
            case 5 -> "[".repeat(20_000).getBytes(StandardCharsets.UTF_8);
            case 6 -> ("{\"project\":\"" + "p".repeat(5000) + "\",\"query\":\"q\",\"document_path\":\"" + "d".repeat(5000)
                    + "\",\"agent_id\":\"" + "a".repeat(5000) + "\",\"type\":\"agent_started\"}")
                    .getBytes(StandardCharsets.UTF_8);
            case 7 -> ("{\"project\":123,\"query\":123,\"top_k\":1.5,\"agent_id\":[],\"document_path\":{},"
                    + "\"content\":7,\"message\":false,\"type\":1}").getBytes(StandardCharsets.UTF_8);
            case 8 -> ("{\"project\":\"poimen\",\"query\":\"q\",\"top_k\":\"5\",\"budget_tokens\":-1,"
                    + "\"weights\":{\"semantic\":\"x\"}}").getBytes(StandardCharsets.UTF_8);
            case 14 -> ("{\"project\":\"poimen\",\"query\":\"q\",\"filters\":" + pick(new String[] {"[]", "7",
                    "{\"tags\":[{}]}", "{\"fields\":{\"p\":{\"between\":[1e309,2]}}}", "{\"path_prefix\":\"/etc\"}",
                    "{\"changed_after\":\"99999d\"}", "{\"fields\":{\"" + "f".repeat(500) + "\":1}}",
                    "{\"tags\":[\"k8s\"],\"fields\":{\"status\":{\"$in\":[\"draft\"]}}}"}) + "}")
                    .getBytes(StandardCharsets.UTF_8);
            case 9 -> ("{\"query\":\"" + "w ".repeat(40_000) + "\"}").getBytes(StandardCharsets.UTF_8);
            case 10 -> "project=poimen&query=x".getBytes(StandardCharsets.UTF_8);
            case 11 -> valid.replace("}", ",\"project\":\"dup\"}").getBytes(StandardCharsets.UTF_8);
            case 12 -> ("{\"document_path\":\"" + pick(new String[] {"README.md", "policies/x.md",
                    "Projects/poimen/a.md", "projects/poimen/../../x.md", "projects/POIMEN/a.md", "shared/../x.md"})
                    + "\",\"content\":\"x\",\"message\":\"m\"}").getBytes(StandardCharsets.UTF_8);
            case 13 -> ("{\"agent_id\":\"bob/trainer\",\"type\":\"memory_retrieved\",\"payload\":{\"project\":"
                    + "\"poimen\",\"chunks\":[{\"path\":\"" + pick(readPaths.toArray(String[]::new)) + "\"}]}}")
                    .getBytes(StandardCharsets.UTF_8);
            default -> valid.getBytes(StandardCharsets.UTF_8);
        };
    }

    private static byte[] withInvalidUtf8(String valid) {
        return invalidUtf8At(valid.getBytes(StandardCharsets.UTF_8), valid.indexOf('"', valid.indexOf(':')) + 1);
    }

    /** {@code v} with three bytes that are not UTF-8 (a stray 0xff, then 0xc3 without its continuation) at {@code at}. */
    static byte[] invalidUtf8At(byte[] v, int at) {
        byte[] out = new byte[v.length + 3];
        System.arraycopy(v, 0, out, 0, at);
        out[at] = (byte) 0xff;
        out[at + 1] = (byte) 0xc3;
        out[at + 2] = (byte) 0x28;
        System.arraycopy(v, at, out, at + 3, v.length - at);
        return out;
    }

    Answer send(byte[] request) throws IOException {
        return exchange(port, request);
    }

    /** Writes {@code request} as is to the hub on {@code port} and reads the whole answer. */
    public static Answer exchange(int port, byte[] request) throws IOException {
        return exchange(port, request, false);
    }

    /** As {@link #exchange(int, byte[])}; {@code wholeStream}: read an event stream to its end too. */
    static Answer exchange(int port, byte[] request, boolean wholeStream) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // the server may answer and close before the whole (oversized) request is written
            }
            return read(s.getInputStream(), wholeStream);
        }
    }

    private static Answer read(InputStream in, boolean wholeStream) throws IOException {
        Answer head = readStatusAndHeaders(in);
        int status = head.status();
        Map<String, String> headers = head.headers();
        if (!wholeStream && headers.getOrDefault("content-type", "").startsWith("text/event-stream")) {
            return new Answer(status, headers, new byte[0]); // a live stream: the status and type are the answer
        }
        byte[] body = in.readNBytes(4 * 1024 * 1024);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Answer(status, headers, body);
    }

    /** The status line and headers of an answer (header names in lower case); its body is left in {@code in}. */
    static Answer readStatusAndHeaders(InputStream in) throws IOException {
        String head = new String(readHead(in), StandardCharsets.ISO_8859_1);
        String[] lines = head.split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int c = lines[i].indexOf(':');
            if (c > 0) {
                headers.put(lines[i].substring(0, c).trim().toLowerCase(), lines[i].substring(c + 1).trim());
            }
        }
        return new Answer(status, headers, new byte[0]);
    }

    private static byte[] readHead(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream();
        int state = 0;
        for (int b; (b = in.read()) >= 0; ) {
            head.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3))
                    ? state + 1 : (b == '\r' ? 1 : 0);
            if (state == 4) {
                break;
            }
        }
        if (head.size() == 0) {
            throw new IOException("connection closed without an answer");
        }
        return head.toByteArray();
    }

    private static byte[] dechunk(byte[] chunked) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int i = 0;
        while (i < chunked.length) {
            int eol = indexOf(chunked, i);
            if (eol < 0) {
                break;
            }
            String size = new String(chunked, i, eol - i, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int n = size.isEmpty() ? 0 : Integer.parseInt(size, 16);
            if (n == 0) {
                break;
            }
            out.write(chunked, eol + 2, Math.min(n, chunked.length - eol - 2));
            i = eol + 2 + n + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] b, int from) {
        for (int i = from; i + 1 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    void check(Endpoint e, byte[] request, Answer a) throws IOException {
        String requestText = new String(request, StandardCharsets.UTF_8);
        String what = e + " → " + a.status() + ": " + abbreviate(a.text()) + "\nrequest: " + abbreviate(requestText);
        if (a.status() >= 500) {
            assertThat(a.status()).as(what).isEqualTo(503);
            assertThat(JSON.readTree(a.body()).path("error").asText()).as(what).isIn(UNCONFIGURED);
        }
        boolean head = requestText.startsWith("HEAD ");
        if (a.status() >= 400 && !head) {
            assertThat(a.headers().getOrDefault("content-type", "")).as(what).startsWith("application/json");
            JsonNode body = JSON.readTree(a.body());
            assertThat(body.isObject()).as(what).isTrue();
            if (e.path().equals("/mcp") && body.path("error").isObject()) {
                // past the hub's own filters the MCP transport answers in JSON-RPC: {jsonrpc, id, error: {code, message}}
                assertThat(body.path("error").path("message").isTextual()).as(what).isTrue();
                assertThat(body.path("error").path("code").isInt()).as(what).isTrue();
            } else {
                assertThat(body.path("error").isTextual()).as(what).isTrue();
                assertThat(body.path("message").isTextual()).as(what).isTrue();
            }
            assertThat(a.text()).as(what).doesNotContain("\tat ", "Exception:", "<html", "stackTrace", "className");
        }
        String answer = a.text();
        int bodyStart = requestText.indexOf("\r\n\r\n");
        String body = bodyStart < 0 ? "" : requestText.substring(bodyStart + 4);
        if (body.length() >= 256) {
            // a failure that answers with the request as it came (a 200 echoing the body) is refused as a class
            assertThat(answer).as(what).doesNotContain(body);
        }
        String echoable = requestText + "\n" + decoded(requestText.substring(0, Math.max(0, requestText.indexOf('\r'))));
        for (String f : forbidden) {
            if (!echoable.contains(f)) {
                assertThat(answer).as(what).doesNotContain(f);
            }
        }
    }

    /** The request line with its percent-encoding undone (an error message may echo a decoded parameter). */
    private static String decoded(String requestLine) {
        try {
            return java.net.URLDecoder.decode(requestLine, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return requestLine.replace("%2F", "/").replace("%2f", "/");
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 600 ? s.substring(0, 600) + "…(" + s.length() + " chars)" : s;
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
