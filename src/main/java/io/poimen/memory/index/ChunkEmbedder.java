package io.poimen.memory.index;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import io.poimen.memory.vault.Chunk;
import java.util.ArrayList;
import java.util.List;

/**
 * Embeds chunks in batches with the same {@link EmbeddingModel} bean that the Camel
 * {@code langchain4j-embeddings} endpoint uses for queries. Camel 4.17's producer embeds one text per
 * exchange (List bodies arrived in a later release), so ingest calls {@code embedAll} here to let the
 * in-process model spread a batch over the cores.
 */
public class ChunkEmbedder {
    private final EmbeddingModel model;
    private final int batchSize;
    private final String passagePrefix;

    /** @param passagePrefix what the model wants in front of a passage (E5's "passage: "), or "" */
    public ChunkEmbedder(EmbeddingModel model, int batchSize, String passagePrefix) {
        this.model = model;
        this.batchSize = batchSize;
        this.passagePrefix = passagePrefix;
    }

    public List<float[]> embed(List<Chunk> chunks) {
        List<float[]> out = new ArrayList<>(chunks.size());
        for (int from = 0; from < chunks.size(); from += batchSize) {
            List<TextSegment> batch = chunks.subList(from, Math.min(chunks.size(), from + batchSize)).stream()
                    .map(c -> passagePrefix + embeddingText(c))
                    .map(TextSegment::from)
                    .toList();
            for (Embedding e : model.embedAll(batch).content()) {
                out.add(e.vector());
            }
        }
        return out;
    }

    /**
     * Breadcrumb first: the heading path carries the topic that a short chunk body may not repeat. Then the chunk's
     * text as written, its links included: the link rule ({@link io.poimen.memory.vault.LinkText}) is about term
     * statistics (a linked heading's word counted as the chunk's own in a short chunk), which a model reading the
     * whole sentence does not share; embedding the rule's own text instead re-embedded every chunk with a link and
     * measured worse on both judged vaults (docs/retrieval.md, "The link rule and the embedded text").
     */
    public static String embeddingText(Chunk c) {
        return c.breadcrumbText() + "\n" + c.text();
    }
}
