package io.poimen.memory.mcp;

import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.HttpHeaders;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.security.Caller;
import io.poimen.memory.security.CallerFilter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Binds each MCP session to the caller who opened it. When the transport answers an {@code initialize} with a new
 * {@code Mcp-Session-Id}, the id is recorded with the caller ({@link McpSessionOwners}) before the header is
 * written, so the owner's next request cannot overtake it. A request naming a session (POST, GET or DELETE) goes
 * on to the transport only when its caller owns that session; any other caller, and any id no caller owns, gets
 * the transport's own answer to an unknown session (404: a JSON-RPC error for POST, the JSON error of the hub for
 * GET and DELETE), so a session id leaked or guessed can neither be used, nor deleted, nor told apart from one that
 * never existed. The caller is the one the security chain resolved ({@link CallerFilter}); without one (the no-auth
 * mode) it is the local operator.
 */
public class McpSessionBinding extends OncePerRequestFilter {
    private static final String LOCAL_OPERATOR = "local operator";

    private final McpSessionOwners owners;
    private final HttpServletStreamableServerTransportProvider transport;

    public McpSessionBinding(McpSessionOwners owners, HttpServletStreamableServerTransportProvider transport) {
        this.owners = owners;
        this.transport = transport;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().equals(McpConfig.ENDPOINT);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String owner = owner(request);
        String session = request.getHeader(HttpHeaders.MCP_SESSION_ID);
        if (session == null || session.isBlank()) {
            // an initialize (or a request the transport refuses for want of a session id)
            chain.doFilter(request, new BindsNewSession(response, owner));
            return;
        }
        if (!owner.equals(owners.ownerOf(session))) {
            unknownSession(request, response, session);
            return;
        }
        chain.doFilter(request, response);
        if (response.getStatus() == 404 || request.getMethod().equals("DELETE") && response.getStatus() == 200) {
            owners.forget(session);
        }
    }

    /** Who owns the sessions this request opens: the signed-in subject, or the local operator of the no-auth mode. */
    static String owner(HttpServletRequest request) {
        return request.getAttribute(CallerFilter.ATTRIBUTE) instanceof Caller c && !c.anonymous()
                ? "subject " + c.subject() : LOCAL_OPERATOR;
    }

    /** What the transport answers a request naming a session it does not have. */
    private void unknownSession(HttpServletRequest request, HttpServletResponse response, String session)
            throws IOException {
        if (request.getMethod().equals("POST")) {
            transport.responseError(response, HttpServletResponse.SC_NOT_FOUND,
                    McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR).message("Session not found: " + session)
                            .build());
        } else {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }

    /** Records the owner of the session id the transport is about to send. */
    private final class BindsNewSession extends HttpServletResponseWrapper {
        private final String owner;

        BindsNewSession(HttpServletResponse response, String owner) {
            super(response);
            this.owner = owner;
        }

        @Override
        public void setHeader(String name, String value) {
            bindIfSession(name, value);
            super.setHeader(name, value);
        }

        @Override
        public void addHeader(String name, String value) {
            bindIfSession(name, value);
            super.addHeader(name, value);
        }

        private void bindIfSession(String name, String value) {
            if (HttpHeaders.MCP_SESSION_ID.equalsIgnoreCase(name) && value != null && !value.isBlank()) {
                owners.bind(value, owner);
            }
        }
    }
}
