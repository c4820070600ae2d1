package io.poimen.memory.cli;

import io.poimen.memory.Application;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A hub without HTTP for benchmarks: its own fresh data folder and in-memory H2 (unless a profile such as
 * prod picks the stores), and a copy of the retrieval policy with 100 candidates per branch so that
 * Recall@100 can be measured.
 */
final class BenchContext {
    private BenchContext() {
    }

    static ConfigurableApplicationContext start(Path work, Path policy, List<String> springArgs) throws IOException {
        Path policies = Files.createDirectories(work.resolve("policies"));
        String settings = Files.readString(policy)
                .replaceAll("(?m)^candidates_per_branch:.*$", "candidates_per_branch: 100");
        Files.writeString(policies.resolve("retrieval.yaml"), settings);
        // command-line arguments, not default properties: application.yaml must not override these
        List<String> args = new java.util.ArrayList<>(List.of("--poimen.vault.ingest-on-startup=false",
                "--camel.main.routes-reload-enabled=false", "--poimen.data.dir=" + work.resolve("data"),
                "--poimen.policies.dir=" + policies,
                "--spring.datasource.url=jdbc:h2:mem:bench;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
                "--poimen.query.branch-timeout-ms=30000", "--logging.level.root=WARN"));
        args.addAll(springArgs); // given last, so a profile or store URL on the command line wins
        return new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new));
    }
}
