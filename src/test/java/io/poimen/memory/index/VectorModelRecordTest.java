package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.index.jdbc.PgVectorIndex;
import io.poimen.memory.index.lucene.LuceneVectorIndex;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both vector stores record the embedding model that built them, refuse to search or extend vectors of another
 * model, and take the configured model after {@link VectorIndex#clearForModel()}. pgvector needs
 * POIMEN_TEST_PG_URL (TestPostgres).
 */
class VectorModelRecordTest {
    private static final int DIMS = 384; // the dimension of the pgvector column (TestPostgres)
    private static final String MINILM = EmbeddingModelChoice.ALL_MINILM_L6_V2_Q.id();
    private static final String BGE = EmbeddingModelChoice.BGE_SMALL_EN_V15_Q.id();

    @TempDir
    Path dir;

    @Test
    void modelRule_whenRecordedDiffers_orVectorsWithoutRecord_thenRefused() {
        assertThat(new VectorModel(BGE, Optional.empty()).matches(0)).isTrue();
        assertThat(new VectorModel(BGE, Optional.empty()).matches(3)).isFalse();
        // before stores recorded their model, every hub embedded with MiniLM
        assertThat(new VectorModel(MINILM, Optional.empty()).matches(3)).isTrue();
        assertThat(new VectorModel(BGE, Optional.of(BGE)).matches(3)).isTrue();
        assertThatThrownBy(() -> new VectorModel(BGE, Optional.of(MINILM)).checkWrite("x", 3))
                .isInstanceOf(VectorModelException.class).hasMessageContaining(MINILM).hasMessageContaining(BGE);
        VectorModel reembedding = new VectorModel(BGE, Optional.of(BGE), false);
        reembedding.checkWrite("x", 3);
        assertThat(reembedding.searchable(3)).isFalse();
        assertThatThrownBy(() -> reembedding.checkSearch("x", 3))
                .isInstanceOf(VectorModelException.class).hasMessageContaining("being re-embedded with " + BGE);
    }

    @Test
    void lucene_recordsModel_acrossRestarts_andRefusesAnotherModel() {
        Path path = dir.resolve("vectors");
        checkStore(model -> LuceneVectorIndex.open(path, DIMS, model));
    }

    @Test
    void pgvector_recordsModel_acrossRestarts_andRefusesAnotherModel() {
        DataSource ds = TestPostgres.freshDatabase("vector_model_record");
        checkStore(model -> new PgVectorIndex(ds, DIMS, PgVectorIndex.DEFAULT_EF_SEARCH, model));
    }

    /** {@code open} opens the same store again with the given configured model (a hub restart). */
    private static void checkStore(Function<String, VectorIndex> open) {
        SearchScope all = new SearchScope(null, List.of());
        VectorIndex first = open.apply(MINILM);
        assertThat(first.model().recorded()).isEmpty();
        first.upsert(List.of(chunk("a.md")), List.of(axis(0)));
        assertThat(first.model().recorded()).contains(MINILM);
        close(first);

        VectorIndex other = open.apply(BGE);
        assertThat(other.model().recorded()).contains(MINILM);
        assertThat(other.model().matches(other.count())).isFalse();
        assertThatThrownBy(() -> other.search(axis(0), all, 5))
                .isInstanceOf(VectorModelException.class).hasMessageContaining(MINILM);
        assertThatThrownBy(() -> other.upsert(List.of(chunk("b.md")), List.of(axis(1))))
                .isInstanceOf(VectorModelException.class);
        other.clearForModel();
        assertThat(other.count()).isZero();
        assertThat(other.model()).isEqualTo(new VectorModel(BGE, Optional.of(BGE), false));
        other.upsert(List.of(chunk("b.md")), List.of(axis(1)));
        // being re-embedded: written, not searched
        assertThatThrownBy(() -> other.search(axis(1), all, 5))
                .isInstanceOf(VectorModelException.class).hasMessageContaining("being re-embedded");
        close(other);

        VectorIndex cutShort = open.apply(BGE);
        assertThat(cutShort.model().complete()).as("an unfinished re-embedding is remembered").isFalse();
        cutShort.markModelComplete();
        assertThat(cutShort.search(axis(1), all, 5)).extracting(Hit::chunkId)
                .containsExactly(Chunk.idOf("b.md", 0));
        close(cutShort);

        VectorIndex reopened = open.apply(BGE);
        assertThat(reopened.model()).isEqualTo(new VectorModel(BGE, Optional.of(BGE), true));
        assertThat(reopened.search(axis(1), all, 5)).hasSize(1);
        close(reopened);
    }

    private static void close(VectorIndex index) {
        if (index instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static float[] axis(int i) {
        float[] v = new float[DIMS];
        v[i] = 1;
        return v;
    }

    private static Chunk chunk(String path) {
        return new Chunk(Chunk.idOf(path, 0), path, null, 0, "h", List.of("h"), "text", 1,
                new ChunkMetadata("h", "text", List.of(), ChunkMetadata.CONCEPT), List.of());
    }
}
