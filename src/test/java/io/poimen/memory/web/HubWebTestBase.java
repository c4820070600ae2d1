package io.poimen.memory.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hub on the embedded default, on a random port, with the example vault ingested at start. The routes are a
 * copy of {@code routes/} in which the query route records {@code memory_retrieved} (the step the query route
 * takes once the lead wires it) and, while this branch has no GRC route, {@code POST /memory/grc/draft} is answered
 * by {@link GrcDraftStub} in the documented shape. Subclasses with the same configuration share one context.
 * Plain {@code @SpringBootTest}: {@code @CamelSpringBootTest} would hold Camel back until the test starts, and the
 * ingest at start needs it running.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.data.dir=target/it-web/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:web-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.path=examples/vault",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S"})
@Import(GrcDraftStub.Config.class)
public abstract class HubWebTestBase {
    /** The step for {@code routes/query.camel.yaml}, right after {@code select}, as the lead will add it. */
    static final String AGENT_STEP = "        - bean:\n"
            + "            ref: agentEvents\n"
            + "            method: memoryRetrieved\n";
    static final String SELECT_STEP = "        - bean:\n"
            + "            ref: queryPipeline\n"
            + "            method: select\n";
    private static Path routes;

    @LocalServerPort
    protected int port;

    protected String base() {
        return "http://127.0.0.1:" + port;
    }

    @DynamicPropertySource
    static void routes(DynamicPropertyRegistry registry) {
        Path dir = testRoutes();
        registry.add("camel.main.routes-include-pattern", () -> "file:" + dir + "/*.camel.yaml");
    }

    /** True when this branch serves the real GRC route; the stub is installed only otherwise. */
    public static boolean grcRouteOnBranch() {
        try (Stream<Path> files = Files.list(Path.of("routes"))) {
            return files.anyMatch(f -> read(f).contains("/grc"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static synchronized Path testRoutes() {
        if (routes != null) {
            return routes;
        }
        try {
            Path dir = Files.createDirectories(Path.of("target/it-web/routes-" + UUID.randomUUID()));
            try (Stream<Path> files = Files.list(Path.of("routes"))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".camel.yaml")).toList()) {
                    String text = read(f);
                    if (f.getFileName().toString().equals("query.camel.yaml") && !text.contains("agentEvents")) {
                        text = withAgentStep(text);
                    }
                    Files.writeString(dir.resolve(f.getFileName()), text);
                }
            }
            if (!grcRouteOnBranch()) {
                Files.writeString(dir.resolve("grc-stub.camel.yaml"), GrcDraftStub.ROUTE);
            }
            routes = dir.toAbsolutePath();
            return routes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The query route with the agent step right after {@code select}. */
    static String withAgentStep(String queryRoute) {
        int at = queryRoute.indexOf(SELECT_STEP);
        if (at < 0) {
            throw new IllegalStateException("query route has no select step to put the agent step after");
        }
        int end = at + SELECT_STEP.length();
        return queryRoute.substring(0, end) + AGENT_STEP + queryRoute.substring(end);
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
