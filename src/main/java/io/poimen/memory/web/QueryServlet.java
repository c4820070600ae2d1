package io.poimen.memory.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;

/**
 * {@code POST /memory/query} straight into {@code direct:query}, the start of {@code routes/query.camel.yaml}'s query
 * route (the hub's only entry to it; the file declares no REST operation), without Spring MVC's dispatch and the platform-http binding around it:
 * the two were about a third of the HTTP layer's CPU per query (docs/retrieval-history.md). The servlet filters and the
 * security chain run as for every other path; the caller and trace id they stored are bound to the exchange as for
 * MCP tool calls. The answer goes out as bytes with its Content-Length, flushed at once; the status, Content-Type
 * and the allow-listed headers are the route's ({@link ApiHeaderFilterStrategy}).
 */
public class QueryServlet extends RouteServlet {
    public static final String PATH = "/memory/query";

    public QueryServlet(ProducerTemplate producer, String routeUri) {
        super(producer, routeUri, PATH, "POST");
    }

    @Override
    void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // read and capped already (RequestBodyLimitFilter, poimen.http.max-body.query): this reads memory
        byte[] body = request.getInputStream().readAllBytes();
        Exchange done = send(request, response, message -> message.setBody(body));
        if (done == null) {
            return;
        }
        RouteAnswer.write(done, response, 200);
        // the answer is complete: the client has it before the filters unwind (meters, context clean-up)
        response.flushBuffer();
    }
}
