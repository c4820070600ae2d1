package io.poimen.memory.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;

/**
 * {@code GET} and {@code HEAD /memory/vault/attachment?path=}: the route {@code direct:vault-attachment}
 * (routes/vault.camel.yaml) decides and opens the file ({@link VaultAttachments}), this servlet streams it, a buffer
 * at a time, so a file is never held in memory whole. Platform-http would copy the body into a cache first to learn
 * its length. The answer: the type's content type, its length, {@code X-Content-Type-Options: nosniff},
 * {@code Content-Disposition: inline} with the file name, the git blob id as a strong {@code ETag} ({@code 304} for a
 * matching {@code If-None-Match}), {@code Cache-Control: private, no-cache} (a browser may keep it, but asks again
 * before each use, so a changed policy applies at once), and for SVG its own Content-Security-Policy
 * ({@link AttachmentType#SANDBOX}) in place of the hub's. Errors are the route's JSON answers.
 */
public class AttachmentServlet extends RouteServlet {
    public static final String PATH = "/memory/vault/attachment";

    public AttachmentServlet(ProducerTemplate producer, String routeUri) {
        super(producer, routeUri, PATH, "GET", "HEAD");
    }

    @Override
    void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
        boolean withBody = request.getMethod().equals("GET");
        Exchange done = send(request, response, message -> message.setHeader("path", request.getParameter("path")));
        if (done == null) {
            return;
        }
        if (!(done.getMessage().getBody() instanceof Attachment attachment)) {
            RouteAnswer.write(done, response, 500);
            return;
        }
        try (attachment) {
            response.setHeader("ETag", attachment.etag());
            response.setHeader("Cache-Control", "private, no-cache");
            response.setHeader("X-Content-Type-Options", "nosniff");
            if (matches(request.getHeader("If-None-Match"), attachment.etag())) {
                response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
                return;
            }
            response.setStatus(HttpServletResponse.SC_OK);
            response.setContentType(attachment.type().mediaType());
            response.setContentLengthLong(attachment.size());
            response.setHeader("Content-Disposition", inline(attachment.name()));
            String csp = attachment.type().contentSecurityPolicy();
            if (csp != null) {
                // set before the answer is committed: the security chain then keeps it instead of writing the hub's
                response.setHeader("Content-Security-Policy", csp);
            }
            if (withBody) {
                attachment.writeTo(response.getOutputStream());
            }
        }
    }

    /**
     * {@code inline} with the file name twice (RFC 6266): as printable ASCII ({@code "}, {@code \\}, control and
     * other characters as {@code _}) and exactly, UTF-8 percent-encoded (RFC 8187).
     */
    static String inline(String name) {
        StringBuilder ascii = new StringBuilder();
        name.chars().forEach(c -> ascii.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? (char) c : '_'));
        StringBuilder exact = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (Character.isLetterOrDigit(c) && c < 0x80 || "!#$&+-.^_`|~".indexOf(c) >= 0) {
                exact.append((char) c);
            } else {
                exact.append('%').append(String.format("%02X", c));
            }
        }
        return "inline; filename=\"" + ascii + "\"; filename*=UTF-8''" + exact;
    }

    /** {@code If-None-Match}: {@code *} or a list of entity tags naming {@code etag} (weak ones compare too). */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        return Arrays.stream(ifNoneMatch.split(",")).map(String::strip)
                .anyMatch(t -> t.equals("*") || t.equals(etag) || t.equals("W/" + etag));
    }
}
