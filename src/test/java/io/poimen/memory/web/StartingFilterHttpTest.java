package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.Application;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The hub answers API calls that arrive after the web server opened its port but before Camel started the routes
 * (a load balancer or an impatient client sends them): 503 JSON {@code starting} with {@code Retry-After}, not a
 * failure inside a route that is not there yet; readiness says the hub is not ready yet; once started the same call
 * is answered. The calls are sent from the listener of the web server's start, which runs in that window.
 */
class StartingFilterHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String QUERY = "{\"project\":\"poimen\",\"query\":\"kubernetes debugging\"}";

    record Seen(boolean routesStarted, HttpResponse<String> query, HttpResponse<String> mcp,
                HttpResponse<String> readiness, HttpResponse<String> ui) {
    }

    @Test
    void apiCallsBeforeTheRoutesAreUpAreA503StartingAndAnsweredOnceTheyAre() throws Exception {
        List<Seen> seen = new ArrayList<>();
        ApplicationListener<ServletWebServerInitializedEvent> early = event -> {
            String base = "http://127.0.0.1:" + event.getWebServer().getPort();
            try {
                seen.add(new Seen(event.getApplicationContext().getBean(CamelContext.class).getStatus().isStarted(),
                        post(base + "/memory/query", QUERY), post(base + "/mcp", "{}"),
                        get(base + "/actuator/health/readiness"), get(base + "/")));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(Application.class).listeners(early)
                .run("--server.port=0", "--poimen.data.dir=target/it-starting/data-" + System.nanoTime(),
                        "--spring.datasource.url=jdbc:h2:mem:starting-" + System.nanoTime()
                                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
                        "--poimen.vault.ingest-on-startup=true", "--camel.main.routes-reload-enabled=false")) {
            assertThat(seen).hasSize(1);
            Seen early0 = seen.get(0);
            assertThat(early0.routesStarted()).as("the calls were sent before the routes were up").isFalse();
            for (HttpResponse<String> api : List.of(early0.query(), early0.mcp())) {
                assertThat(api.statusCode()).as(api.body()).isEqualTo(503);
                assertThat(api.headers().firstValue("Retry-After")).hasValue(StartingFilter.RETRY_AFTER_SECONDS);
                JsonNode body = JSON.readTree(api.body());
                assertThat(body.path("error").asText()).isEqualTo("starting");
                assertThat(body.path("message").asText()).contains("starting");
            }
            assertThat(early0.readiness().statusCode()).isEqualTo(503);
            assertThat(early0.readiness().body()).contains("OUT_OF_SERVICE");
            assertThat(early0.ui().statusCode()).isEqualTo(200);

            String base = "http://127.0.0.1:" + ctx.getEnvironment().getProperty("local.server.port");
            HttpResponse<String> later = post(base + "/memory/query", QUERY);
            assertThat(later.statusCode()).as(later.body()).isEqualTo(200);
            assertThat(JSON.readTree(later.body()).path("results").size()).isPositive();
            assertThat(get(base + "/actuator/health/readiness").statusCode()).isEqualTo(200);
        }
    }

    private static HttpResponse<String> post(String url, String json) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
