package io.poimen.memory.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.camel.ProducerTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link RecencyAndHitsRouteContract} on the embedded default: H2 file rows, Lucene, no auth. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.data.dir=target/it-recency-hits/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:recency-hits-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;"
                + "DB_CLOSE_DELAY=-1;DEFAULT_NULL_ORDERING=HIGH",
        "poimen.vault.ingest-on-startup=true", "camel.main.routes-reload-enabled=false"})
class RecencyAndHitsEmbeddedTest extends RecencyAndHitsRouteContract {
    static final Path DIR = FlowRecipesLiveReloadTest.tempCopy();
    static final Path VAULT = RecencyHitsVault.create(Path.of("target/it-recency-hits/vault-" + UUID.randomUUID()));
    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    ProducerTemplate producer;

    @DynamicPropertySource
    static void vaultAndPolicies(DynamicPropertyRegistry registry) {
        registry.add("poimen.vault.path", VAULT::toString);
        registry.add("poimen.policies.dir", () -> DIR.resolve("policies").toString());
    }

    @Override
    JsonNode ask(String body) throws Exception {
        return JSON.readTree(producer.requestBody("direct:query", body.getBytes(StandardCharsets.UTF_8), String.class));
    }

    @Override
    Path policyFile() {
        return DIR.resolve("policies/retrieval.yaml");
    }
}
