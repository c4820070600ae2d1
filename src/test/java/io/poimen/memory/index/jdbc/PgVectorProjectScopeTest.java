package io.poimen.memory.index.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.VaultPaths;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A large project scope searched through its {@link SearchScope.ProjectFilter} finds the same chunks as the list of
 * every path would, and never a chunk of a note out of scope: denied project notes, shared notes the project does
 * not reach, other projects, nor a note stored after the link graph the scope came from.
 */
class PgVectorProjectScopeTest {

    private static final int DIMS = 384;
    private static final int NOTES = SearchScope.PROJECT_FILTER_MIN_PATHS + 500;
    private static final Set<String> DENIED = Set.of("projects/big/n-7.md", "projects/big/n-70.md");
    private static final String UNKNOWN = "projects/big/newer-than-the-graph.md";

    private static PgVectorIndex index;
    private static final List<Chunk> chunks = new ArrayList<>();
    private static final List<float[]> vectors = new ArrayList<>();
    private static Set<String> own;
    private static Set<String> scopePaths;

    @BeforeAll
    static void load() {
        index = new PgVectorIndex(TestPostgres.freshDatabase("pg_vector_project_scope"), DIMS);
        Random random = new Random(31);
        own = IntStream.range(0, NOTES).mapToObj(i -> "projects/big/n-" + i + ".md").collect(Collectors.toSet());
        List<String> all = new ArrayList<>(own.stream().sorted().toList());
        IntStream.range(0, 40).mapToObj(i -> "shared/s-" + i + ".md").forEach(all::add);
        IntStream.range(0, 300).mapToObj(i -> "projects/other/o-" + i + ".md").forEach(all::add);
        all.add(UNKNOWN);
        for (String path : all) {
            chunks.add(new Chunk(Chunk.idOf(path, 0), path, VaultPaths.projectOf(path), 0, "h", List.of("h"), "t", 1,
                    new ChunkMetadata("h", "t", List.of(), ChunkMetadata.CONCEPT), List.of()));
            vectors.add(randomVector(random));
        }
        index.upsert(chunks, vectors);
        scopePaths = new HashSet<>(own);
        scopePaths.removeAll(DENIED);
        IntStream.range(0, 20).mapToObj(i -> "shared/s-" + i + ".md").forEach(scopePaths::add);
    }

    @Test
    void projectFilterFindsWhatThePathListFindsAndNothingOutOfScope() {
        SearchScope byProject = SearchScope.ofProject("big", scopePaths, own, List.of());
        assertThat(byProject.byProject()).isNotNull();
        assertThat(byProject.byProject().excluded()).isEqualTo(DENIED);
        // the queries sit on out-of-scope chunks: each would be the first hit if a filter let it through
        List<String> probes = new ArrayList<>(DENIED);
        probes.addAll(List.of(UNKNOWN, "shared/s-30.md", "projects/other/o-3.md", "shared/s-3.md",
                "projects/big/n-100.md"));
        double found = 0;
        double total = 0;
        for (String probe : probes) {
            float[] query = vectors.get(indexOf(probe));
            for (int k : new int[] {1, 10, 50}) {
                List<Hit> viaProject = index.search(query, byProject, k);
                List<Hit> viaPaths = index.search(query, SearchScope.of(scopePaths), k);

                assertThat(viaProject).as("probe %s, k=%d", probe, k).hasSize(k)
                        .allMatch(h -> scopePaths.contains(h.chunkId().substring(0, h.chunkId().lastIndexOf('#'))));
                Set<String> same = ids(viaProject);
                same.retainAll(ids(viaPaths));
                found += same.size();
                total += k;
            }
        }
        // both may be served by the HNSW graph, which is approximate; on this size the planner mostly scans exactly
        assertThat(found / total).isGreaterThanOrEqualTo(0.95);
        assertThat(index.search(vectors.get(indexOf("shared/s-3.md")), byProject, 1)).extracting(Hit::chunkId)
                .containsExactly("shared/s-3.md#0");
        assertThat(index.search(vectors.get(indexOf("projects/big/n-100.md")), byProject, 1))
                .extracting(Hit::chunkId).containsExactly("projects/big/n-100.md#0");
    }

    /**
     * What {@link PgVectorIndex#withSearchStatement} hands out (for a benchmark's EXPLAIN) is the statement the
     * search runs: run as handed, it finds the search's chunks, for each shape of scope.
     */
    @Test
    void theHandedSearchStatementIsTheOneTheSearchRuns() {
        float[] query = vectors.get(indexOf("projects/big/n-100.md"));
        Map<String, SearchScope> scopes = new LinkedHashMap<>();
        scopes.put(PgVectorIndex.SEARCH_ALL, SearchScope.all());
        scopes.put(PgVectorIndex.SEARCH_SCOPED, SearchScope.of(Set.of("projects/big/n-100.md", "shared/s-3.md",
                "projects/big/n-5.md", "projects/other/o-3.md")));
        scopes.put(PgVectorIndex.SEARCH_PROJECT, SearchScope.ofProject("big", scopePaths, own, List.of()));
        for (Map.Entry<String, SearchScope> scope : scopes.entrySet()) {
            int k = 10;
            List<String> sql = new ArrayList<>();
            Set<String> handed = index.withSearchStatement(query, scope.getValue(), k, (connection, statement) -> {
                sql.add(statement.sql());
                Set<String> found = new HashSet<>();
                try (PreparedStatement ps = connection.prepareStatement(statement.sql())) {
                    statement.bind(ps);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            found.add(rs.getString(1));
                        }
                    }
                }
                return found;
            });

            assertThat(sql).as("scope %s", scope.getKey()).containsExactly(scope.getKey());
            assertThat(handed).as("scope %s", scope.getKey()).isNotEmpty()
                    .isEqualTo(ids(index.search(query, scope.getValue(), k)));
        }
    }

    private static Set<String> ids(List<Hit> hits) {
        return hits.stream().map(Hit::chunkId).collect(Collectors.toSet());
    }

    private static int indexOf(String path) {
        for (int i = 0; i < chunks.size(); i++) {
            if (chunks.get(i).path().equals(path)) {
                return i;
            }
        }
        throw new IllegalArgumentException(path);
    }

    private static float[] randomVector(Random random) {
        float[] vector = new float[DIMS];
        for (int i = 0; i < DIMS; i++) {
            vector[i] = (float) random.nextGaussian();
        }
        return vector;
    }
}
