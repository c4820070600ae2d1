package io.poimen.memory.grc;

import io.poimen.memory.testsupport.OidcHubTestBase;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The {@link TwoEditors} scenarios on the prod profile (PostgreSQL + pgvector, OpenSearch) with OIDC on, no git host:
 * ann and rita, both editors of the poimen project, edit one note from the same version and approve each other's
 * drafts (neither may approve their own), over HTTP with bearer tokens from the test issuer.
 */
@ActiveProfiles("prod")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.opensearch.index=local-review-concurrency",
        "poimen.data.dir=target/it-review/data-prod-concurrency-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S"})
class LocalReviewConcurrencyProdOidcTest extends OidcHubTestBase implements TwoEditors.Scenarios {

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("local_review_concurrency");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }

    @Override
    public TwoEditors editors() {
        return new TwoEditors(new TwoEditors.Hub() {
            @Override
            public TwoEditors.Answer get(int editor, String path) throws Exception {
                return answer(LocalReviewConcurrencyProdOidcTest.this.get(token(editor), path));
            }

            @Override
            public TwoEditors.Answer post(int editor, String path, String json) throws Exception {
                return answer(LocalReviewConcurrencyProdOidcTest.this.post(token(editor), path, json));
            }

            @Override
            public Path vault() {
                return VAULT;
            }
        }, "projects/poimen/memories");
    }

    private static String token(int editor) {
        return editor == 0 ? LocalReviewOidcTest.ann() : LocalReviewOidcTest.rita();
    }

    private static TwoEditors.Answer answer(HttpResponse<String> r) throws Exception {
        return new TwoEditors.Answer(r.statusCode(), TwoEditors.JSON.readTree(r.body()));
    }
}
