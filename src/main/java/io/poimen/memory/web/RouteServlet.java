package io.poimen.memory.web;

import io.poimen.memory.security.auth.ExchangeSecurity;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * A servlet in front of one Camel route, for paths whose answer the platform-http binding would slow down or
 * buffer: it serves its methods (OPTIONS lists them, others are 405 with {@code Allow}), tags
 * {@code http.server.requests} with its path (no handler mapping does here), and sends the request to the route
 * with the caller and trace id the filters stored, as for MCP tool calls.
 */
abstract class RouteServlet extends HttpServlet {
    private final String path;
    private final List<String> methods;
    private final transient ProducerTemplate producer;
    private final transient Endpoint route;
    private final transient Logger log = LoggerFactory.getLogger(getClass());

    RouteServlet(ProducerTemplate producer, String routeUri, String path, String... methods) {
        this.path = path;
        this.methods = List.of(methods);
        this.producer = producer;
        this.route = producer.getCamelContext().getEndpoint(routeUri);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ServerHttpObservationFilter.findObservationContext(request).ifPresent(c -> c.setPathPattern(path));
        String method = request.getMethod();
        if (methods.contains(method)) {
            answer(request, response);
        } else if (method.equals("OPTIONS")) {
            response.setHeader("Allow", String.join(",", methods) + ",OPTIONS");
        } else {
            response.setHeader("Allow", String.join(",", methods));
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
        }
    }

    /** Answers a request of one of this servlet's methods. */
    abstract void answer(HttpServletRequest request, HttpServletResponse response) throws IOException;

    /** The route's exchange for {@code request}; null when the route failed and its JSON error is written. */
    Exchange send(HttpServletRequest request, HttpServletResponse response, Consumer<Message> input)
            throws IOException {
        Exchange done = producer.send(route, ex -> {
            ExchangeSecurity.bind(ex, request);
            input.accept(ex.getMessage());
        });
        return RouteAnswer.failed(done, response, log) ? null : done;
    }
}
