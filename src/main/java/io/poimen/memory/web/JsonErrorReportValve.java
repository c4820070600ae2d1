package io.poimen.memory.web;

import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error answers (a request line or header too large, a header that does not parse) in the API's
 * JSON shape instead of Tomcat's HTML page. Errors that reached the application already carry their body.
 */
public class JsonErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        String message = switch (status) {
            case 400 -> "the request could not be read (a header too large or malformed, or a bad request line)";
            case 413 -> "request too large";
            case 414 -> "request URI too long";
            default -> "the request could not be served";
        };
        try {
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            Writer out = response.getReporter();
            if (out != null) {
                out.write("{\"error\":\"" + JsonErrorBody.code(status) + "\",\"message\":\"" + message + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response was closed: nothing left to answer
        }
    }
}
