package io.poimen.memory.index.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TlsBasicAuthProxy;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opensearch.client.ResponseException;
import org.opensearch.client.RestClient;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.transport.rest_client.RestClientTransport;

/**
 * The hub's OpenSearch client ({@link OpenSearchRestClients}, what {@code poimen.opensearch.username/password/
 * ca-bundle} configure) against a node that requires HTTPS and basic auth: the real test node behind
 * {@link TlsBasicAuthProxy}. With credentials and the right CA it works; without credentials the server refuses,
 * and a certificate from another CA (or only the JVM's default trust) fails the TLS handshake.
 */
class SecuredOpenSearchTest {
    static final Path KEYS = Path.of("target/secured-opensearch-" + UUID.randomUUID());
    static TlsBasicAuthProxy proxy;

    @BeforeAll
    static void secureTheNode() throws Exception {
        proxy = TlsBasicAuthProxy.start(TestOpenSearch.url(), "poimen", "s3cret-pass", KEYS);
    }

    @AfterAll
    static void stop() {
        proxy.close();
    }

    static OpenSearchClient client(RestClient rest) {
        return new OpenSearchClient(new RestClientTransport(rest, new JacksonJsonpMapper()));
    }

    @Test
    void withTheCredentialsAndTheCaBundleTheIndexIsCreatedAndSearched() throws Exception {
        try (RestClient rest = OpenSearchRestClients.create(proxy.url(), "poimen", "s3cret-pass", proxy.caBundle())) {
            OpenSearchClient client = client(rest);
            assertThat(client.info().clusterName()).isEqualTo("poimen-test");
            String name = "secured-" + UUID.randomUUID().toString().substring(0, 8);
            OpenSearchLexicalIndex index = new OpenSearchLexicalIndex(client,
                    OpenSearchLexicalIndex.Options.defaults().withIndexName(name).withRefresh(Refresh.WaitFor));
            index.ensureIndex();
            assertThat(client.indices().exists(e -> e.index(name)).value()).isTrue();
            assertThat(proxy.forwarded.get()).isPositive();
        }
    }

    @Test
    void withoutCredentialsTheServerRefuses() throws Exception {
        int before = proxy.rejected.get();
        try (RestClient rest = OpenSearchRestClients.create(proxy.url(), null, null, proxy.caBundle())) {
            assertThatThrownBy(() -> rest.performRequest(new org.opensearch.client.Request("GET", "/")))
                    .isInstanceOf(ResponseException.class)
                    .satisfies(e -> assertThat(((ResponseException) e).getResponse().getStatusLine().getStatusCode())
                            .isEqualTo(401));
        }
        try (RestClient rest = OpenSearchRestClients.create(proxy.url(), "poimen", "wrong", proxy.caBundle())) {
            assertThatThrownBy(() -> client(rest).info()).hasMessageContaining("Unauthorized");
        }
        assertThat(proxy.rejected.get()).isEqualTo(before + 2);
    }

    @Test
    void aCertificateFromAnotherCaOrOnlyTheDefaultTrustFailsTheHandshake() throws Exception {
        Path other = TlsBasicAuthProxy.unrelatedCaBundle(KEYS);
        int before = proxy.forwarded.get() + proxy.rejected.get();
        try (RestClient rest = OpenSearchRestClients.create(proxy.url(), "poimen", "s3cret-pass", other)) {
            assertThatThrownBy(() -> client(rest).info()).hasStackTraceContaining("PKIX");
        }
        try (RestClient rest = OpenSearchRestClients.create(proxy.url(), "poimen", "s3cret-pass", null)) {
            assertThatThrownBy(() -> client(rest).info()).hasStackTraceContaining("PKIX");
        }
        assertThat(proxy.forwarded.get() + proxy.rejected.get()).as("no request got through").isEqualTo(before);
    }
}
