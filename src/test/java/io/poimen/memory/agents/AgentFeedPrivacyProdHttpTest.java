package io.poimen.memory.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.testsupport.AgentStreamClient;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link AgentFeedPrivacyHttpTest} on the production stores: PostgreSQL + pgvector (notes, vectors, the agent log and
 * the audit table) and an OpenSearch node (BM25), with OIDC on; and the stream of events other replicas store.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.security.clock-skew=PT1S",
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=agent-feed",
        "poimen.data.dir=target/it-feed/data-prod-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S",
        "poimen.agents.replay-max-events=3"})
class AgentFeedPrivacyProdHttpTest extends AgentFeedPrivacyHttpTest {
    @Autowired DataSource database;
    @Autowired com.fasterxml.jackson.databind.ObjectMapper json;

    /**
     * Issue 27 item 3: an event another replica stored (its own {@link AgentLogStore} on the shared database, which
     * announces the id at commit) reaches a stream open on this replica, as this replica's own events do, once; and
     * a resumption reads only within the replay window.
     */
    @Test
    void anEventAnotherReplicaStoredReachesAStreamOpenHere() throws Exception {
        String marker = "elsewhere-" + UUID.randomUUID();
        AgentLogStore otherReplica = new AgentLogStore(database, json, true);
        try (AgentStreamClient daveStream = stream(dave())) {
            AgentEvent stored = otherReplica.append("charlie/elsewhere", null, AgentEventType.AGENT_DECISION,
                    Map.of("project", "poimen", "reasoning", marker));
            daveStream.awaitText(marker);
            assertThat(daveStream.ids()).containsOnlyOnce(stored.id());
            assertThat(otherReplica.missed(stored.id() - 1, null, null, Instant.now().minusSeconds(600), 10))
                    .extracting(AgentEvent::id).containsExactly(stored.id());
            assertThat(otherReplica.missed(stored.id() - 1, null, null, Instant.now().plusSeconds(60), 10))
                    .as("nothing stored within the window").isEmpty();
        }
    }

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("agent_feed");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }
}
