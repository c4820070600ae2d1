package io.poimen.memory.web;

import io.poimen.memory.security.ExchangeSecurity;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * {@code POST /memory/query} straight into {@code direct:query}, the route the {@code rest:} block of
 * {@code routes/query.camel.yaml} targets, without Spring MVC's dispatch and the platform-http binding around it:
 * the two were about a third of the HTTP layer's CPU per query (docs/retrieval-history.md). The servlet filters and the
 * security chain run as for every other path; the caller and trace id they stored are bound to the exchange as for
 * MCP tool calls. The answer goes out as bytes with its Content-Length, flushed at once; the status, Content-Type
 * and the allow-listed headers are the route's ({@link ApiHeaderFilterStrategy}).
 */
public class QueryServlet extends HttpServlet {
    public static final String PATH = "/memory/query";
    private static final Logger log = LoggerFactory.getLogger(QueryServlet.class);
    private final transient ProducerTemplate producer;
    private final transient Endpoint route;

    public QueryServlet(ProducerTemplate producer, String routeUri) {
        this.producer = producer;
        this.route = producer.getCamelContext().getEndpoint(routeUri);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // http.server.requests is tagged with the handler's pattern, which no handler mapping sets here
        ServerHttpObservationFilter.findObservationContext(request).ifPresent(c -> c.setPathPattern(PATH));
        switch (request.getMethod()) {
            case "POST" -> query(request, response);
            case "OPTIONS" -> response.setHeader("Allow", "POST,OPTIONS");
            default -> {
                response.setHeader("Allow", "POST");
                response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            }
        }
    }

    private void query(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // read and capped already (RequestBodyLimitFilter, poimen.http.max-body.query): this reads memory
        byte[] body = request.getInputStream().readAllBytes();
        Exchange done = producer.send(route, ex -> {
            ExchangeSecurity.bind(ex, request);
            ex.getMessage().setBody(body);
        });
        if (RouteAnswer.failed(done, response, log)) {
            return;
        }
        RouteAnswer.write(done, response, 200);
        // the answer is complete: the client has it before the filters unwind (meters, context clean-up)
        response.flushBuffer();
    }
}
