package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

/**
 * The actuator on a separate management port in oidc mode, as k8s and compose run it (there 9090): Spring Boot puts
 * the same security filter chain in front of it, which leaves that port to the network's protection (not routed by
 * the Ingress, a NetworkPolicy for the monitoring namespace, 127.0.0.1 in compose), so Prometheus scrapes without a
 * bearer; the API port does not serve the metrics at all (an operator's bearer gets 404 there, anyone else's 403).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.data.dir=target/it-management-port/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:management-port-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;DEFAULT_NULL_ORDERING=HIGH",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "management.server.port=0", "management.server.address=127.0.0.1"})
@AutoConfigureObservability
class ManagementPortOidcTest extends OidcHubTestBase {

    @LocalManagementPort int managementPort;

    HttpResponse<String> anonymous(int onPort, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + onPort + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void prometheusScrapesTheManagementPortWithoutABearerAndTheApiPortServesNoMetrics() throws Exception {
        assertThat(managementPort).isNotEqualTo(port);
        HttpResponse<String> scrape = anonymous(managementPort, "/actuator/prometheus");
        assertThat(scrape.statusCode()).as(scrape.body()).isEqualTo(200);
        assertThat(scrape.body()).contains("poimen_");
        assertThat(anonymous(managementPort, "/actuator/metrics").statusCode()).isEqualTo(200);
        assertThat(anonymous(managementPort, "/actuator/health").statusCode()).isEqualTo(200);

        assertThat(anonymous(port, "/actuator/prometheus").statusCode()).isEqualTo(401);
        assertThat(get(charlie(), "/actuator/prometheus").statusCode()).isEqualTo(403);
        HttpResponse<String> api = get(token("olga", java.util.List.of(), java.util.List.of("admin")),
                "/actuator/prometheus");
        assertThat(api.statusCode()).as(api.body()).isEqualTo(404);
        assertThat(api.body()).doesNotContain("poimen_");
    }
}
