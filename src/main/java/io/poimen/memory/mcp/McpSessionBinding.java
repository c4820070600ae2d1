package io.poimen.memory.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.HttpHeaders;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerFilter;
import io.poimen.memory.web.JsonErrorBody;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * MCP sessions, held by the hub rather than by the MCP transport (the SDK's stateless transport answers each
 * message on its own): an {@code initialize} that the server answers opens a session in {@link McpSessions} for
 * the caller and gets its {@code Mcp-Session-Id}; every other message names its session, which goes on to the
 * transport (as {@link #SESSION}, from where {@link HubCalls#context} passes it to the tools) only when the caller
 * owns it. Any other caller, and an id no caller has, gets the answer of an unknown session (404: a JSON-RPC error
 * for POST, the JSON error of the hub for GET and DELETE), so a session id leaked or guessed can neither be used,
 * nor deleted, nor told apart from one that never existed. Sessions are in the notes database: any replica serves
 * any request of a session. {@code DELETE} ends the owner's session; {@code GET} on it answers 405, as the MCP
 * specification has a server do that sends no messages of its own; a notification of the owner is accepted (202)
 * and goes no further, as nothing in the server waits for one. The caller is the one the security chain
 * resolved ({@link CallerFilter}); without one (the no-auth mode) it is the local operator.
 */
public class McpSessionBinding extends OncePerRequestFilter {
    /** Request attribute: the {@link McpSessions.Session} a message to the transport belongs to. */
    static final String SESSION = McpSessionBinding.class.getName() + ".session";
    private static final String LOCAL_OPERATOR = "local operator";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final McpSessions sessions;
    private final McpJsonMapper mcpJson;

    public McpSessionBinding(McpSessions sessions, McpJsonMapper mcpJson) {
        this.sessions = sessions;
        this.mcpJson = mcpJson;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().equals(McpConfig.ENDPOINT);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String owner = owner(request);
        String id = request.getHeader(HttpHeaders.MCP_SESSION_ID);
        boolean post = request.getMethod().equals("POST");
        if (id == null || id.isBlank()) {
            if (post && initialize(request)) {
                open(request, response, chain, owner);
            } else {
                rpcError(response, HttpServletResponse.SC_BAD_REQUEST, McpSchema.ErrorCodes.METHOD_NOT_FOUND,
                        "Session ID required in mcp-session-id header");
            }
            return;
        }
        McpSessions.Session session = sessions.find(id, owner);
        if (session == null) {
            unknownSession(request, response, id);
        } else if (request.getMethod().equals("DELETE")) {
            sessions.end(id);
            response.setStatus(HttpServletResponse.SC_OK);
        } else if (!post) {
            response.setHeader("Allow", "POST, DELETE");
            JsonErrorBody.write(response, 405, "method_not_allowed", "this server sends no messages of its own: "
                    + "GET opens no stream; answers come with each POST");
        } else if (initialize(request)) {
            open(request, response, chain, owner);
        } else if (notification(request)) {
            // notifications/initialized, cancelled, ...: nothing for a server that keeps no state in the transport
            response.setStatus(HttpServletResponse.SC_ACCEPTED);
        } else {
            request.setAttribute(SESSION, session);
            chain.doFilter(request, response);
        }
    }

    /** Who owns the sessions this request opens: the signed-in subject, or the local operator of the no-auth mode. */
    static String owner(HttpServletRequest request) {
        return request.getAttribute(CallerFilter.ATTRIBUTE) instanceof Caller c && !c.anonymous()
                ? "subject " + c.subject() : LOCAL_OPERATOR;
    }

    private static boolean notification(HttpServletRequest request) {
        return request.getAttribute(McpEnvelopeFilter.MESSAGE) instanceof Map<?, ?> m && !m.containsKey("id");
    }

    private static boolean initialize(HttpServletRequest request) {
        return request.getAttribute(McpEnvelopeFilter.MESSAGE) instanceof Map<?, ?> m && m.containsKey("id")
                && McpSchema.METHOD_INITIALIZE.equals(m.get("method"));
    }

    /**
     * Lets the transport answer the {@code initialize}; when it answered a result, opens the session and sends its
     * id with the answer (held back until then: it is small).
     */
    private void open(HttpServletRequest request, HttpServletResponse response, FilterChain chain, String owner)
            throws ServletException, IOException {
        ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
        chain.doFilter(request, answer);
        if (answer.getStatus() == HttpServletResponse.SC_OK && answered(answer.getContentAsByteArray())) {
            response.setHeader(HttpHeaders.MCP_SESSION_ID, sessions.open(owner, clientName(request)));
        }
        answer.copyBodyToResponse();
    }

    private static boolean answered(byte[] body) {
        try {
            JsonNode message = JSON.readTree(new String(body, StandardCharsets.UTF_8));
            return message != null && message.has("result");
        } catch (IOException e) {
            return false;
        }
    }

    private static String clientName(HttpServletRequest request) {
        Object message = request.getAttribute(McpEnvelopeFilter.MESSAGE);
        return message instanceof Map<?, ?> m && m.get("params") instanceof Map<?, ?> params
                && params.get("clientInfo") instanceof Map<?, ?> info && info.get("name") instanceof String name
                ? name : null;
    }

    /** The answer to a request naming a session the caller does not have. */
    private void unknownSession(HttpServletRequest request, HttpServletResponse response, String id)
            throws IOException {
        if (request.getMethod().equals("POST")) {
            rpcError(response, HttpServletResponse.SC_NOT_FOUND, McpSchema.ErrorCodes.INTERNAL_ERROR,
                    "Session not found: " + id);
        } else {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }

    /** An MCP error as the transport writes one. */
    private void rpcError(HttpServletResponse response, int status, int code, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(mcpJson.writeValueAsString(McpError.builder(code).message(message).build()));
        response.getWriter().flush();
    }
}
