package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.testsupport.HostileRequests;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Status codes and error shapes on the embedded no-auth hub, over a raw socket so that every header goes out as
 * written (issue 12 items 5, 9 and 12): each error is JSON {@code {error, message}} with the right 4xx.
 */
class ErrorStatusHttpTest extends HubWebTestBase {
    @Test
    void wrongJsonTypesAreA400NamingTheField() throws Exception {
        assertThat(error(post("/memory/query", "application/json", "{\"project\":\"poimen\",\"query\":123}"), 400)
                .path("message").asText()).contains("query");
        assertThat(error(post("/memory/query", "application/json",
                "{\"project\":\"poimen\",\"query\":\"pods\",\"top_k\":1.5}"), 400).path("message").asText())
                .contains("top_k");
        assertThat(error(post("/memory/query", "application/json",
                "{\"project\":\"poimen\",\"query\":\"pods\",\"top_k\":\"5\"}"), 400).path("message").asText())
                .contains("top_k");
        assertThat(error(post("/memory/grc/draft", "application/json",
                "{\"document_path\":5,\"content\":\"x\",\"message\":\"m\"}"), 400).path("message").asText())
                .contains("document_path");
    }

    @Test
    void aBodyThatIsNotUtf8AndAbsurdFieldsAre400() throws Exception {
        byte[] body = {'{', '"', 'p', 'r', 'o', 'j', 'e', 'c', 't', '"', ':', '"', (byte) 0xff, (byte) 0xc3, '(', '"',
                ',', '"', 'q', 'u', 'e', 'r', 'y', '"', ':', '"', 'x', '"', '}'};
        for (String path : new String[] {"/memory/query", "/memory/agents/events", "/memory/grc/draft"}) {
            error(send("POST", path, "127.0.0.1:" + port, "application/json", body), 400);
        }
        assertThat(error(post("/memory/query", "application/json",
                "{\"project\":\"" + "p".repeat(5000) + "\",\"query\":\"q\"}"), 400).path("message").asText())
                .contains("project");
        error(post("/memory/query", "application/json", "{\"project\":\"poimen\",\"query\":\"q\"} trailing"), 400);
    }

    @Test
    void writesTakeJsonOnlyAnd415IsInTheApiShape() throws Exception {
        assertThat(error(post("/memory/admin/reindex", "text/plain", "x"), 415).path("error").asText())
                .isEqualTo("unsupported_media_type");
        error(post("/memory/admin/reindex", null, ""), 415);
        error(post("/memory/webhooks/forgejo", "application/x-www-form-urlencoded", "payload=%7B%7D",
                "X-Forgejo-Event: push"), 415);
        error(post("/memory/query", "multipart/form-data; boundary=x", "--x--"), 415);
        error(post("/memory/agents/events", "application/json; charset=iso-8859-1", "{}"), 415);
    }

    @Test
    void theNoAuthModeAnswersLoopbackNamesOnly() throws Exception {
        byte[] none = new byte[0];
        for (String host : new String[] {"evil.example", "evil.example:" + port, "127.0.0.1.nip.io", "0.0.0.0"}) {
            assertThat(error(send("GET", "/memory/projects", host, null, none), 403).path("error").asText())
                    .isEqualTo("host_not_allowed");
        }
        for (String host : new String[] {"localhost:" + port, "127.0.0.1", "[::1]:" + port}) {
            assertThat(send("GET", "/memory/projects", host, null, none).status()).as(host).isEqualTo(200);
        }
        assertThat(error(post("/memory/admin/reindex", "application/json", "", "Origin: http://evil.example"), 403)
                .path("error").asText()).isEqualTo("origin_not_allowed");
    }

    @Test
    void tomcatAndSpringLevelErrorsAreJsonToo() throws Exception {
        byte[] none = new byte[0];
        assertThat(error(send("GET", "/memory/no-such-endpoint", "127.0.0.1", null, none), 404)
                .path("error").asText()).isEqualTo("not_found");
        error(send("DELETE", "/memory/query", "127.0.0.1", null, none), 405);
        // a 20 KB bearer token is read (and ignored by the no-auth mode); a header past the 64 KB limit is Tomcat's
        assertThat(send("GET", "/memory/projects", "127.0.0.1", null, none,
                "Authorization: Bearer " + "a".repeat(20_000)).status()).isEqualTo(200);
        error(send("GET", "/memory/projects", "127.0.0.1", null, none, "X-Padding: " + "p".repeat(70_000)), 400);
        error(send("GET", "/memory/vault/file?path=%zz", "127.0.0.1", null, none), 400);
    }
}
