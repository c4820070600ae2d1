package io.poimen.memory.index.tfidf;

import static io.poimen.memory.index.tfidf.TestChunks.chunk;
import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.Hit;
import io.poimen.memory.vault.Chunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TfIdfIndexConcurrencyTest {
    static final String NOTE = "projects/p/pods.md";

    static List<Chunk> version(int v) {
        List<Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < 2 + v; i++) {
            chunks.add(chunk(NOTE, i, "Pods v" + v, "pod crash number " + i + " restart loop"));
        }
        return chunks;
    }

    static Set<String> ids(List<Chunk> chunks) {
        return chunks.stream().map(Chunk::id).collect(Collectors.toSet());
    }

    /** Readers racing a writer that swaps a note between two versions only ever see one whole version. */
    @Test
    void searchesDuringReplacesSeeWholeVersions() throws Exception {
        TfIdfIndex index = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
        index.addAll(List.of(chunk("projects/p/other.md", 0, "Other", "docker image pull error"),
                chunk("shared/concepts/net.md", 0, "Net", "dns lookup")));
        index.replacePath(NOTE, version(0));
        Set<String> v0 = ids(version(0));
        Set<String> v1 = ids(version(1));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Callable<Integer> writer = () -> {
                for (int i = 0; i < 500; i++) {
                    index.replacePath(NOTE, version(i % 2));
                    index.add(chunk("projects/p/extra.md", i % 7, "Extra", "pod extra " + i));
                }
                return 0;
            };
            Callable<Integer> reader = () -> {
                int checks = 0;
                for (int i = 0; i < 1000; i++) {
                    Set<String> seen = index.search("pod crash restart", "p", Set.of(NOTE), 50).stream()
                            .map(Hit::chunkId).collect(Collectors.toSet());
                    assertThat(seen).isIn(v0, v1);
                    checks++;
                }
                return checks;
            };
            List<Future<Integer>> futures = new ArrayList<>();
            futures.add(pool.submit(writer));
            for (int r = 0; r < 3; r++) {
                futures.add(pool.submit(reader));
            }
            for (Future<Integer> f : futures) {
                f.get(); // rethrows any reader assertion or writer exception
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(ids(version(1))).isEqualTo(index.search("pod crash restart", "p", Set.of(NOTE), 50).stream()
                .map(Hit::chunkId).collect(Collectors.toSet()));
        assertThat(index.size()).isEqualTo(2 + 3 + 7);
    }
}
