package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.embedding.EmbeddingModel;
import io.poimen.memory.config.StartRefusedException;
import org.junit.jupiter.api.Test;

class EmbeddingModelChoiceTest {

    @Test
    void namesAreTheConfigurationValues_caseAndSpaceInsensitive_unknownNamesListTheKnownOnes() {
        assertThat(EmbeddingModelChoice.of(" BGE-small-en-v1.5-q ")).isEqualTo(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q);
        assertThat(EmbeddingModelChoice.of("all-minilm-l6-v2-q")).isEqualTo(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q);
        assertThat(EmbeddingModelChoice.of("E5-small-v2-q")).isEqualTo(EmbeddingModelChoice.E5_SMALL_V2_Q);
        assertThatThrownBy(() -> EmbeddingModelChoice.of("bge-large"))
                .isInstanceOf(StartRefusedException.class).hasMessageContaining("bge-large")
                .hasMessageContaining("all-minilm-l6-v2-q").hasMessageContaining("bge-small-en-v1.5-q").hasMessageContaining("e5-small-v2-q");
    }

    @Test
    void bgeWantsAQueryPrefix_e5AQueryAndAPassagePrefix_miniLmNeither() {
        assertThat(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q.queryPrefix()).isEmpty();
        assertThat(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q.passagePrefix()).isEmpty();
        assertThat(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q.queryPrefix())
                .isEqualTo("Represent this sentence for searching relevant passages: ");
        assertThat(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q.passagePrefix()).isEmpty();
        assertThat(EmbeddingModelChoice.E5_SMALL_V2_Q.queryPrefix()).isEqualTo("query: ");
        assertThat(EmbeddingModelChoice.E5_SMALL_V2_Q.passagePrefix()).isEqualTo("passage: ");
    }

    @Test
    void everyModelLoads_as384Dimensional_andEachEmbedsDifferently() {
        java.util.List<float[]> vectors = new java.util.ArrayList<>();
        for (EmbeddingModelChoice choice : EmbeddingModelChoice.builtIns()) {
            EmbeddingModel model = choice.load(2);
            float[] v = model.embed("pods restart after a deploy").content().vector();
            assertThat(v).as(choice.id()).hasSize(384);
            vectors.forEach(other -> assertThat(v).as(choice.id()).isNotEqualTo(other));
            vectors.add(v);
        }
        assertThat(vectors).hasSize(3);
    }
}
