package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.embedding.EmbeddingModel;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import java.util.List;
import org.apache.lucene.util.VectorUtil;
import org.junit.jupiter.api.Test;

class ChunkEmbedderTest {

    private static Chunk chunk(int ordinal, String text) {
        String path = "projects/p/runbook.md";
        return new Chunk(Chunk.idOf(path, ordinal), path, "p", ordinal, "Restart", List.of("Runbook", "Restart"),
                text, 10, new ChunkMetadata("Restart", text, List.of(), ChunkMetadata.CONCEPT), List.of());
    }

    /** E5 was trained on "passage: " + text for documents: chunks get it, in every batch; MiniLM gets nothing. */
    @Test
    void chunksGetTheModelsPassagePrefixInFrontOfBreadcrumbAndText() {
        EmbeddingModelChoice e5 = EmbeddingModelChoice.E5_SMALL_V2_Q;
        EmbeddingModel model = e5.load(2);
        List<Chunk> chunks = List.of(chunk(0, "Drain the node, then restart the ingest worker."),
                chunk(1, "Roll back with kubectl rollout undo."), chunk(2, "Check the logs first."));
        List<float[]> vectors = new ChunkEmbedder(model, 2, e5.passagePrefix()).embed(chunks);
        assertThat(vectors).hasSize(3);
        for (int i = 0; i < chunks.size(); i++) {
            String text = ChunkEmbedder.embeddingText(chunks.get(i));
            float[] withPrefix = model.embed("passage: " + text).content().vector();
            float[] without = model.embed(text).content().vector();
            assertThat(VectorUtil.cosine(vectors.get(i), withPrefix)).isGreaterThan(0.9999f);
            assertThat(VectorUtil.cosine(vectors.get(i), without)).isLessThan(0.9999f);
        }
        List<float[]> plain = new ChunkEmbedder(model, 2, "").embed(chunks.subList(0, 1));
        float[] noPrefix = model.embed(ChunkEmbedder.embeddingText(chunks.get(0))).content().vector();
        assertThat(VectorUtil.cosine(plain.get(0), noPrefix)).isGreaterThan(0.9999f);
    }

    /** The link rule leaves the embedded text alone: a link's target and heading are read in their sentence. */
    @Test
    void aChunkIsEmbeddedAsWrittenWithItsLinks() {
        Chunk c = chunk(0, "For crashes at start, see [[pod-crashes#CrashLoopBackOff]] and [[Core plugins|plugin]].");
        assertThat(ChunkEmbedder.embeddingText(c)).isEqualTo(
                "Runbook > Restart\nFor crashes at start, see [[pod-crashes#CrashLoopBackOff]] and [[Core plugins|plugin]].");
    }
}
