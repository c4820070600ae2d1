package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.retrieval.fusion.CalibratedFusion;
import org.junit.jupiter.api.Test;

class BonusUnitAdviceTest {

    @Test
    void onlyAModelOtherThanMiniLmWithCosineUnitBonusesIsWarnedAbout() {
        assertThat(BonusUnitAdvice.advice(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q, CalibratedFusion.Unit.COSINE))
                .isEmpty();
        assertThat(BonusUnitAdvice.advice(EmbeddingModelChoice.E5_SMALL_V2_Q, CalibratedFusion.Unit.SPREAD)).isEmpty();
        assertThat(BonusUnitAdvice.advice(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q, CalibratedFusion.Unit.SPREAD))
                .isEmpty();
        for (EmbeddingModelChoice m : new EmbeddingModelChoice[] {EmbeddingModelChoice.BGE_SMALL_EN_V15_Q,
                EmbeddingModelChoice.E5_SMALL_V2_Q}) {
            assertThat(BonusUnitAdvice.advice(m, CalibratedFusion.Unit.COSINE)).get().asString()
                    .contains(m.id()).contains("bonus_unit: spread");
        }
    }
}
