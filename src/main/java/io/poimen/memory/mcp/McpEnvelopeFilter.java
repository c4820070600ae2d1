package io.poimen.memory.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.web.BufferedBodyRequest;
import io.poimen.memory.web.JsonErrorBody;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Checks each request to {@code /mcp} before the MCP transport sees it. The transport answers a method it does not
 * serve with the servlet container's default (501 for {@code PATCH}), and it only deserialises a message's params
 * once it has started the answer's event stream, so a message with params of the wrong JSON type ended as a 500
 * (or worse, a stream that never completes). Here: methods other than GET, POST and DELETE are a 405, and a body
 * (read and capped before, by {@code RequestBodyLimitFilter}, {@code poimen.http.max-body.mcp}) that is not one
 * well-formed JSON-RPC 2.0 message whose params the MCP schema
 * types accept is a 400 with a JSON-RPC error ({@code -32700} parse error, {@code -32600} invalid request,
 * {@code -32602} invalid params), all before any stream is opened. The body is parsed once: the transport reads it
 * through {@link ParsedBodies}, which hands it this filter's parse.
 */
public class McpEnvelopeFilter extends OncePerRequestFilter {
    private static final Set<String> METHODS = Set.of("GET", "POST", "DELETE");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The params type of each method whose params the server reads. */
    private static final Map<String, Class<?>> PARAMS = Map.of(
            McpSchema.METHOD_INITIALIZE, McpSchema.InitializeRequest.class,
            McpSchema.METHOD_TOOLS_CALL, McpSchema.CallToolRequest.class,
            McpSchema.METHOD_TOOLS_LIST, McpSchema.PaginatedRequest.class,
            McpSchema.METHOD_LOGGING_SET_LEVEL, McpSchema.SetLevelRequest.class);
    /** The methods the transport cannot answer without params (tools/list's cursor is optional). */
    private static final Set<String> REQUIRED_PARAMS = Set.of(McpSchema.METHOD_INITIALIZE,
            McpSchema.METHOD_TOOLS_CALL, McpSchema.METHOD_LOGGING_SET_LEVEL);

    /** Request attribute: the POST's JSON-RPC message as untyped JSON (a map), once this filter accepted it. */
    static final String MESSAGE = McpEnvelopeFilter.class.getName() + ".message";

    /** The body the transport is about to read on this thread, parsed by this filter (see {@link ParsedBodies}). */
    private static final ThreadLocal<Parsed> PARSED = new ThreadLocal<>();

    private record Parsed(String text, Object message) {
    }

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
        byte[] body = request.getInputStream().readAllBytes(); // in memory already, within its cap
        String text;
        Object message;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
            message = JSON.readValue(text, Object.class);
        } catch (IOException | RuntimeException e) {
            rpcError(response, null, -32700, "parse error: the body is not one JSON value in UTF-8");
            return;
        }
        String problem = problem(message);
        if (problem != null) {
            rpcError(response, message instanceof Map<?, ?> m ? m.get("id") : null, problem.startsWith("params")
                    ? -32602 : -32600, problem);
            return;
        }
        // the transport parses the body again through its mapper: ParsedBodies hands it this parse instead
        PARSED.set(new Parsed(text, message));
        request.setAttribute(MESSAGE, message);
        try {
            chain.doFilter(new BufferedBodyRequest(request, body), response);
        } finally {
            PARSED.remove();
        }
    }

    /** What is wrong with {@code m} (the body as untyped JSON) as a JSON-RPC 2.0 message to this server, or null. */
    String problem(Object m) {
        if (!(m instanceof Map<?, ?> message)) {
            return "invalid request: a JSON-RPC message is one JSON object (batches are not served)";
        }
        if (!"2.0".equals(message.get("jsonrpc"))) {
            return "invalid request: \"jsonrpc\" must be \"2.0\"";
        }
        if (message.containsKey("id") && !validId(message.get("id"))) {
            return "invalid request: \"id\" must be a string or an integer";
        }
        if (!message.containsKey("method")) {
            // this server sends clients no requests, so a response (result or error) answers nothing it asked
            return "invalid request: \"method\" is missing (this server takes no JSON-RPC responses)";
        }
        if (!(message.get("method") instanceof String method)) {
            return "invalid request: \"method\" must be a string";
        }
        Object params = message.get("params");
        if (params != null && !(params instanceof Map)) {
            return "params must be an object";
        }
        Class<?> type = PARAMS.get(method);
        if (params == null && REQUIRED_PARAMS.contains(method)) {
            return "params of " + method + " are missing";
        }
        if (type == null || params == null) {
            return null;
        }
        if (method.equals(McpSchema.METHOD_TOOLS_CALL)) {
            Object args = ((Map<?, ?>) params).get("arguments");
            if (!(((Map<?, ?>) params).get("name") instanceof String) || args != null && !(args instanceof Map)) {
                return "params of tools/call: \"name\" must be a string and \"arguments\" an object";
            }
        }
        try {
            mcpJson.convertValue(params, type);
            return null;
        } catch (IllegalArgumentException e) {
            return "params of " + method + " do not have the types the MCP schema gives them";
        }
    }

    /** A string or an integer that fits a long (untyped JSON reads a bigger one as a BigInteger). */
    private static boolean validId(Object id) {
        return id instanceof String || id instanceof Integer || id instanceof Long;
    }

    private static void rpcError(HttpServletResponse response, Object id, int code, String message)
            throws IOException {
        ObjectNode out = JSON.createObjectNode().put("jsonrpc", "2.0");
        out.set("id", validId(id) ? JSON.valueToTree(id) : null);
        out.putObject("error").put("code", code).put("message", message);
        response.setStatus(400);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        JSON.writeValue(response.getOutputStream(), out);
    }

    /**
     * The transport's mapper: it reads the JSON-RPC message of a body this filter has just parsed (same thread,
     * same text) as that parse instead of parsing it a second time; everything else goes to {@code mapper}.
     */
    static final class ParsedBodies implements McpJsonMapper {
        private final McpJsonMapper mapper;

        ParsedBodies(McpJsonMapper mapper) {
            this.mapper = mapper;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T readValue(String content, TypeRef<T> type) throws IOException {
            Parsed p = PARSED.get();
            Type t = type.getType();
            Type raw = t instanceof ParameterizedType pt ? pt.getRawType() : t;
            if (p != null && raw instanceof Class<?> c && c.isInstance(p.message()) && p.text().equals(content)) {
                PARSED.remove();
                return (T) p.message();
            }
            return mapper.readValue(content, type);
        }

        @Override
        public <T> T readValue(String content, Class<T> type) throws IOException {
            return mapper.readValue(content, type);
        }

        @Override
        public <T> T readValue(byte[] content, Class<T> type) throws IOException {
            return mapper.readValue(content, type);
        }

        @Override
        public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
            return mapper.readValue(content, type);
        }

        @Override
        public <T> T convertValue(Object value, Class<T> type) {
            return mapper.convertValue(value, type);
        }

        @Override
        public <T> T convertValue(Object value, TypeRef<T> type) {
            return mapper.convertValue(value, type);
        }

        @Override
        public String writeValueAsString(Object value) throws IOException {
            return mapper.writeValueAsString(value);
        }

        @Override
        public byte[] writeValueAsBytes(Object value) throws IOException {
            return mapper.writeValueAsBytes(value);
        }
    }
}
