package io.poimen.bench;

import io.poimen.bench.faults.EmbeddingFaults;
import io.poimen.memory.Application;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/** The hub as {@code serve} starts it, plus the fault hooks of load and fault runs (scripts/load-test-prod.sh). */
@Command(name = "serve", description = {"Start the hub with fault hooks, for load and fault runs.",
        "Spring properties pass through, as with serve."})
public class BenchServeCommand implements Callable<Integer> {
    @Option(names = "--embedding-failure-file", required = true,
            description = "the embedding model fails while this file exists")
    Path embeddingFailureFile;

    @Unmatched
    List<String> springArgs = new ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        ConfigurableApplicationContext hub = new SpringApplicationBuilder(Application.class)
                .initializers(context -> context.getBeanFactory()
                        .addBeanPostProcessor(new EmbeddingFaults(embeddingFailureFile)))
                .run(springArgs.toArray(String[]::new));
        // the entry point ends the JVM after every command but serve: this one returns when the hub is closed
        CountDownLatch closed = new CountDownLatch(1);
        hub.addApplicationListener((ContextClosedEvent event) -> closed.countDown());
        if (hub.isActive()) {
            closed.await();
        }
        return 0;
    }
}
