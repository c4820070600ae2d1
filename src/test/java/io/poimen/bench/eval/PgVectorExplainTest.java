package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.jdbc.PgVectorIndex;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.VaultPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The bench's EXPLAIN ANALYZE of a pgvector search, on a real PostgreSQL, for each shape of scope the index runs. */
class PgVectorExplainTest {
    private static final int DIMS = 384;
    private static final int NOTES = 200;

    private static PgVectorIndex index;
    private static final List<float[]> vectors = new ArrayList<>();

    @BeforeAll
    static void load() {
        index = new PgVectorIndex(TestPostgres.freshDatabase("pg_vector_explain"), DIMS);
        Random random = new Random(7);
        List<Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < NOTES; i++) {
            String path = "projects/p/n-" + i + ".md";
            chunks.add(new Chunk(Chunk.idOf(path, 0), path, VaultPaths.projectOf(path), 0, "h", List.of("h"), "t", 1,
                    new ChunkMetadata("h", "t", List.of(), ChunkMetadata.CONCEPT), List.of()));
            float[] v = new float[DIMS];
            for (int d = 0; d < DIMS; d++) {
                v[d] = (float) random.nextGaussian();
            }
            vectors.add(v);
        }
        index.upsert(chunks, vectors);
    }

    @Test
    void executionTimeIsPositiveForEveryShapeOfScope() {
        // a project filter needs a large scope: notes of the link graph need no row to be in it
        Set<String> notes = IntStream.range(0, SearchScope.PROJECT_FILTER_MIN_PATHS + 10).mapToObj(i -> "projects/p/n-" + i + ".md")
                .collect(Collectors.toSet());
        Set<String> readable = notes.stream().filter(p -> !p.equals("projects/p/n-3.md")).collect(Collectors.toSet());
        SearchScope byProject = SearchScope.ofProject("p", readable, notes, List.of());
        assertThat(byProject.byProject()).isNotNull();
        for (SearchScope scope : List.of(SearchScope.all(), SearchScope.of(Set.of("projects/p/n-1.md")), byProject)) {
            assertThat(PgVectorExplain.executionMillis(index, vectors.get(1), scope, 10)).isPositive();
        }
    }
}
