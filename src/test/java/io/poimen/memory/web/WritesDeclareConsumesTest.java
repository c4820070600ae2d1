package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * Issue 12 item 5, "in every mode, state-changing endpoints declare consumes": every POST, PUT, PATCH and DELETE
 * operation of the REST DSL in {@code routes/} names {@code application/json}, so Camel refuses any other content
 * type (and {@link JsonWritesFilter} answers 415 before it reaches a route). {@code POST /memory/query} is not in
 * {@code routes/}: its servlet and its operation are the hub's code ({@link WebConfig}), where it consumes JSON too.
 */
class WritesDeclareConsumesTest {

    @Test
    void everyStateChangingRestOperationConsumesJson() throws IOException {
        List<String> writes = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("routes"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                try (Reader in = Files.newBufferedReader(file)) {
                    Object doc = new Yaml().load(in);
                    if (!(doc instanceof List<?> items)) {
                        continue;
                    }
                    for (Object item : items) {
                        if (item instanceof Map<?, ?> m && m.get("rest") instanceof Map<?, ?> rest) {
                            for (String verb : List.of("post", "put", "patch", "delete")) {
                                if (rest.get(verb) instanceof List<?> ops) {
                                    for (Object op : ops) {
                                        Map<?, ?> o = (Map<?, ?>) op;
                                        String name = file.getFileName() + " " + verb + " " + rest.get("path")
                                                + o.get("path");
                                        writes.add(name);
                                        assertThat(String.valueOf(o.get("consumes"))).as(name)
                                                .isEqualTo("application/json");
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assertThat(writes).as("the write endpoints found").hasSizeGreaterThanOrEqualTo(5)
                .anyMatch(w -> w.contains("/memory/admin/reindex")).noneMatch(w -> w.contains("/memory/query"))
                .anyMatch(w -> w.contains("/memory/webhooks")).anyMatch(w -> w.contains("/memory/grc/draft"))
                .anyMatch(w -> w.contains("/memory/agents/events"));
    }
}
