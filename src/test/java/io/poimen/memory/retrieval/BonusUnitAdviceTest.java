package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.retrieval.fusion.CalibratedFusion;
import io.poimen.memory.testsupport.ModelFolders;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.FileSystemUtils;

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

    /** The policy's auto is resolved before the advice reads it: it warns only about an explicit cosine. */
    @Test
    void autoIsNeverWarnedAboutAnExplicitCosineWithE5Is(@TempDir Path dir) throws Exception {
        FileSystemUtils.copyRecursively(Path.of("policies"), dir);
        for (EmbeddingModelChoice m : new EmbeddingModelChoice[] {EmbeddingModelChoice.ALL_MINILM_L6_V2_Q,
                EmbeddingModelChoice.E5_SMALL_V2_Q, EmbeddingModelChoice.BGE_SMALL_EN_V15_Q}) {
            assertThat(BonusUnitAdvice.advice(m, new RetrievalPolicy(dir, m).current().calibration().unit()))
                    .as(m.id()).isEmpty();
        }
        Path file = dir.resolve("retrieval.yaml");
        Files.writeString(file, Files.readString(file).replace("    bonus_unit: auto\n", "    bonus_unit: cosine\n"));
        EmbeddingModelChoice e5 = EmbeddingModelChoice.E5_SMALL_V2_Q;
        assertThat(BonusUnitAdvice.advice(e5, new RetrievalPolicy(dir, e5).current().calibration().unit())).get()
                .asString().contains("bonus_unit: spread, or auto");
    }

    /** A folder model's cosine scale is not known: the advice says so, and spread silences it. */
    @Test
    void aFolderModelWithCosineUnitBonusesIsWarnedAboutToo(@TempDir Path dir) {
        EmbeddingModelChoice minilm = EmbeddingModelChoice.ALL_MINILM_L6_V2_Q;
        EmbeddingModelChoice folder = EmbeddingModelChoice.of(ModelFolders.copyOf(minilm, dir.resolve("m"),
                ModelFolders.descriptorOf(minilm, "team-model", "mean")).toString());
        assertThat(BonusUnitAdvice.advice(folder, CalibratedFusion.Unit.COSINE)).get().asString()
                .contains(folder.id()).contains("is not the model the fusion's bonuses in cosine units were fitted for")
                .contains("bonus_unit: spread");
        assertThat(BonusUnitAdvice.advice(folder, CalibratedFusion.Unit.SPREAD)).isEmpty();
    }
}
