package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.embedding.EmbeddingModel;
import io.poimen.memory.config.StartRefusedException;
import io.poimen.memory.testsupport.ModelFolders;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.lucene.util.VectorUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A model folder made of a built-in model's own ONNX file and tokenizer (copied out of its langchain4j artifact)
 * and a descriptor gives the built-in model's vectors, through the ingest model, the query session and the
 * chunk embedder with the passage prefix: MiniLM (mean pooling), BGE (CLS pooling, query instruction), E5 (mean,
 * "query: " and "passage: ").
 */
class FolderModelVectorsTest {
    private static final List<String> TEXTS = List.of("how do I restart the ingest worker", "kubectl rollout undo",
            "Die Pods starten nach dem Deployment immer wieder neu.", "ok");

    @TempDir
    Path dir;

    static Stream<Arguments> models() {
        return Stream.of(Arguments.of(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q, "mean"),
                Arguments.of(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q, "cls"),
                Arguments.of(EmbeddingModelChoice.E5_SMALL_V2_Q, "mean"));
    }

    @ParameterizedTest
    @MethodSource("models")
    void aFolderCopyOfABuiltInModelEmbedsQueriesAndChunksAsTheBuiltInDoes(EmbeddingModelChoice builtIn,
                                                                           String pooling) {
        Path folder = ModelFolders.copyOf(builtIn, dir.resolve("m"),
                ModelFolders.descriptorOf(builtIn, "copy-of-" + builtIn.id(), pooling));
        EmbeddingModelChoice own = EmbeddingModelChoice.of(folder.toString());
        assertThat(own.queryPrefix()).isEqualTo(builtIn.queryPrefix());
        assertThat(own.passagePrefix()).isEqualTo(builtIn.passagePrefix());
        assertThat(own.id()).startsWith("copy-of-" + builtIn.id() + "@").isNotEqualTo(builtIn.id());

        EmbeddingModel reference = builtIn.load(2);
        EmbeddingModel ingest = own.load(2);
        EmbeddingModel query = SessionEmbeddingModel.forQueries(own);
        for (String text : TEXTS) {
            float[] expected = reference.embed(builtIn.queryPrefix() + text).content().vector();
            assertThat(ingest.embed(own.queryPrefix() + text).content().vector()).hasSize(384);
            assertThat(VectorUtil.cosine(expected, ingest.embed(own.queryPrefix() + text).content().vector()))
                    .as("ingest model, %s", text).isGreaterThan(0.9999f);
            assertThat(VectorUtil.cosine(expected, query.embed(own.queryPrefix() + text).content().vector()))
                    .as("query session, %s", text).isGreaterThan(0.9999f);
        }
        Chunk chunk = new Chunk("projects/p/a.md#0", "projects/p/a.md", "p", 0, "Restarts", List.of("A", "Restarts"),
                "Pods restart after a deploy when the readiness probe fails.", 12,
                new ChunkMetadata("Restarts", null, List.of(), null), List.of());
        float[] stored = new ChunkEmbedder(reference, 32, builtIn.passagePrefix()).embed(List.of(chunk)).get(0);
        float[] fromFolder = new ChunkEmbedder(ingest, 32, own.passagePrefix()).embed(List.of(chunk)).get(0);
        assertThat(VectorUtil.cosine(stored, fromFolder)).isGreaterThan(0.9999f);
    }

    /** The descriptor's pooling is what the model is run with: BGE's file read with mean pooling is another model. */
    @Test
    void thePoolingOfTheDescriptorIsTheOneUsed() {
        EmbeddingModelChoice bge = EmbeddingModelChoice.BGE_SMALL_EN_V15_Q;
        Path folder = ModelFolders.copyOf(bge, dir.resolve("bge-mean"), ModelFolders.descriptorOf(bge, "bge", "mean"));
        EmbeddingModel wrong = EmbeddingModelChoice.of(folder.toString()).load(2);
        float[] cls = bge.load(2).embed(TEXTS.get(0)).content().vector();
        assertThat(VectorUtil.cosine(cls, wrong.embed(TEXTS.get(0)).content().vector())).isLessThan(0.99f);
    }

    @Test
    void aDescriptorWhoseSizeIsNotTheModelsOrFilesThatAreNoModelStopTheStart() throws IOException {
        EmbeddingModelChoice minilm = EmbeddingModelChoice.ALL_MINILM_L6_V2_Q;
        Path folder = ModelFolders.copyOf(minilm, dir.resolve("m"),
                ModelFolders.descriptorOf(minilm, "minilm", "mean").replace("dimensions: 384", "dimensions: 768"));
        assertThatThrownBy(() -> EmbeddingModelChoice.of(folder.toString()).load(2))
                .isInstanceOf(StartRefusedException.class)
                .hasMessage("poimen.embedding.model=" + folder + ": its descriptor says dimensions: 768 but the model "
                        + "makes 384-dimensional vectors");

        Files.writeString(folder.resolve("poimen-model.yaml"), ModelFolders.descriptorOf(minilm, "minilm", "mean"));
        Files.write(folder.resolve("model.onnx"), new byte[] {'n', 'o', 't', ' ', 'o', 'n', 'n', 'x'});
        EmbeddingModelChoice broken = EmbeddingModelChoice.of(folder.toString());
        assertThatThrownBy(() -> broken.load(2)).isInstanceOf(StartRefusedException.class)
                .hasMessageStartingWith("poimen.embedding.model=" + folder + ": model.onnx and tokenizer.json could "
                        + "not be opened as an ONNX model and a Hugging Face tokenizer");
        assertThatThrownBy(() -> SessionEmbeddingModel.forQueries(broken)).isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("could not be opened as an ONNX model");
    }
}
