package io.poimen.memory.web;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.poimen.memory.grc.GrcTestSupport;
import java.nio.file.Path;
import java.util.UUID;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hub on the embedded default, on a random port, serving the real {@code routes/}, with the example vault
 * ingested at start. Edits through review are real too, set up as in {@link GrcTestSupport}: the vault is a clone of
 * a bare repository on disk ({@link #REMOTE}) and {@link #FORGEJO} (WireMock) answers Forgejo's API. Subclasses with
 * the same configuration share one context. Plain {@code @SpringBootTest}: {@code @CamelSpringBootTest} would hold
 * Camel back until the test starts, and the ingest at start needs it running.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.data.dir=target/it-web/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:web-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S"})
public abstract class HubWebTestBase {
    /** Own remote and vault clone, apart from the GRC tests' (they push to main and sync). */
    protected static final Path GIT_ROOT = Path.of("target/it-web/git-" + UUID.randomUUID()).toAbsolutePath();
    protected static final Path REMOTE = GIT_ROOT.resolve("remote.git");
    protected static final WireMockServer FORGEJO =
            new WireMockServer(WireMockConfiguration.options().dynamicPort());

    @LocalServerPort
    protected int port;

    protected String base() {
        return "http://127.0.0.1:" + port;
    }

    @DynamicPropertySource
    static void gitAndForgejo(DynamicPropertyRegistry registry) throws Exception {
        GrcTestSupport.gitRemoteAndForgejo(registry, GIT_ROOT, FORGEJO);
    }
}
