package io.poimen.memory.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.web.JsonErrorBody;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Checks each request to {@code /mcp} before the MCP transport sees it. The transport answers a method it does not
 * serve with the servlet container's default (501 for {@code PATCH}), and it only deserialises a message's params
 * once it has started the answer's event stream, so a message with params of the wrong JSON type ended as a 500
 * (or worse, a stream that never completes). Here: methods other than GET, POST and DELETE are a 405, a body over
 * {@link #MAX_BODY} a 413, and a body that is not one well-formed JSON-RPC 2.0 message whose params the MCP schema
 * types accept is a 400 with a JSON-RPC error ({@code -32700} parse error, {@code -32600} invalid request,
 * {@code -32602} invalid params), all before any stream is opened.
 */
public class McpEnvelopeFilter extends OncePerRequestFilter {
    static final int MAX_BODY = 4 * 1024 * 1024;
    private static final Set<String> METHODS = Set.of("GET", "POST", "DELETE");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The params type of each method whose params the server reads. */
    private static final Map<String, Class<?>> PARAMS = Map.of(
            McpSchema.METHOD_INITIALIZE, McpSchema.InitializeRequest.class,
            McpSchema.METHOD_TOOLS_CALL, McpSchema.CallToolRequest.class,
            McpSchema.METHOD_TOOLS_LIST, McpSchema.PaginatedRequest.class,
            McpSchema.METHOD_LOGGING_SET_LEVEL, McpSchema.SetLevelRequest.class);

    private final McpJsonMapper mcpJson;

    public McpEnvelopeFilter(McpJsonMapper mcpJson) {
        this.mcpJson = mcpJson;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().equals(McpConfig.ENDPOINT);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!METHODS.contains(request.getMethod())) {
            response.setHeader("Allow", "GET, POST, DELETE");
            JsonErrorBody.write(response, 405, "method_not_allowed", "method " + request.getMethod()
                    + " is not served at " + McpConfig.ENDPOINT);
            return;
        }
        if (!request.getMethod().equals("POST")) {
            chain.doFilter(request, response);
            return;
        }
        byte[] body = request.getInputStream().readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            JsonErrorBody.write(response, 413, "payload_too_large", "an MCP message takes at most " + MAX_BODY
                    + " bytes");
            return;
        }
        JsonNode message;
        try {
            message = JSON.readTree(StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(body))
                    .toString());
        } catch (IOException | RuntimeException e) {
            rpcError(response, null, -32700, "parse error: the body is not one JSON value in UTF-8");
            return;
        }
        String problem = problem(message);
        if (problem != null) {
            rpcError(response, message == null ? null : message.get("id"), problem.startsWith("params")
                    ? -32602 : -32600, problem);
            return;
        }
        chain.doFilter(new CachedBody(request, body), response);
    }

    /** What is wrong with {@code m} as a JSON-RPC 2.0 message to this server, or null. */
    String problem(JsonNode m) {
        if (m == null || !m.isObject()) {
            return "invalid request: a JSON-RPC message is one JSON object (batches are not served)";
        }
        if (!"2.0".equals(m.path("jsonrpc").textValue())) {
            return "invalid request: \"jsonrpc\" must be \"2.0\"";
        }
        JsonNode id = m.get("id");
        if (id != null && !(id.isTextual() || id.canConvertToLong() && id.isIntegralNumber())) {
            return "invalid request: \"id\" must be a string or an integer";
        }
        JsonNode method = m.get("method");
        if (method == null) {
            // this server sends clients no requests, so a response (result or error) answers nothing it asked
            return "invalid request: \"method\" is missing (this server takes no JSON-RPC responses)";
        }
        if (!method.isTextual()) {
            return "invalid request: \"method\" must be a string";
        }
        JsonNode params = m.get("params");
        if (params != null && !params.isNull() && !params.isObject()) {
            return "params must be an object";
        }
        Class<?> type = PARAMS.get(method.textValue());
        if (type == null || params == null) {
            return null;
        }
        if (method.textValue().equals(McpSchema.METHOD_TOOLS_CALL)) {
            JsonNode args = params.get("arguments");
            if (!params.path("name").isTextual() || args != null && !args.isNull() && !args.isObject()) {
                return "params of tools/call: \"name\" must be a string and \"arguments\" an object";
            }
        }
        try {
            mcpJson.convertValue(params, type);
            return null;
        } catch (IllegalArgumentException e) {
            return "params of " + method.textValue() + " do not have the types the MCP schema gives them";
        }
    }

    private static void rpcError(HttpServletResponse response, JsonNode id, int code, String message)
            throws IOException {
        ObjectNode out = JSON.createObjectNode().put("jsonrpc", "2.0");
        out.set("id", id == null || !(id.isTextual() || id.isIntegralNumber()) ? null : id);
        out.putObject("error").put("code", code).put("message", message);
        response.setStatus(400);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        JSON.writeValue(response.getOutputStream(), out);
    }

    /** The request with its body read once, for the transport to read again. */
    private static final class CachedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        CachedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("a cached body is read blocking");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
