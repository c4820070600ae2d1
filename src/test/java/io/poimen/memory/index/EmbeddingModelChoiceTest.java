package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.embedding.EmbeddingModel;
import org.junit.jupiter.api.Test;

class EmbeddingModelChoiceTest {

    @Test
    void namesAreTheConfigurationValues_caseAndSpaceInsensitive_unknownNamesListTheKnownOnes() {
        assertThat(EmbeddingModelChoice.of(" BGE-small-en-v1.5-q ")).isEqualTo(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q);
        assertThat(EmbeddingModelChoice.of("all-minilm-l6-v2-q")).isEqualTo(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q);
        assertThatThrownBy(() -> EmbeddingModelChoice.of("bge-large"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bge-large")
                .hasMessageContaining("all-minilm-l6-v2-q").hasMessageContaining("bge-small-en-v1.5-q");
    }

    @Test
    void onlyBgeWantsAQueryPrefix() {
        assertThat(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q.queryPrefix()).isEmpty();
        assertThat(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q.queryPrefix())
                .isEqualTo("Represent this sentence for searching relevant passages: ");
    }

    @Test
    void bothModelsLoad_as384Dimensional_andEmbedDifferently() {
        EmbeddingModel minilm = EmbeddingModelChoice.ALL_MINILM_L6_V2_Q.load();
        EmbeddingModel bge = EmbeddingModelChoice.BGE_SMALL_EN_V15_Q.load();
        float[] a = minilm.embed("pods restart after a deploy").content().vector();
        float[] b = bge.embed("pods restart after a deploy").content().vector();
        assertThat(a).hasSize(384);
        assertThat(b).hasSize(384);
        assertThat(a).isNotEqualTo(b);
    }
}
