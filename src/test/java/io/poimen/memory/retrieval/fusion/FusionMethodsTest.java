package io.poimen.memory.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FusionMethodsTest {

    @Test
    void byName() {
        assertThat(FusionMethods.of("weighted")).isInstanceOf(WeightedFusion.class);
        assertThat(FusionMethods.of(" RRF ")).isInstanceOf(RrfFusion.class);
        assertThat(FusionMethods.of("rrf").name()).isEqualTo("rrf");
        assertThat(FusionMethods.of("calibrated")).isInstanceOf(CalibratedFusion.class);
        assertThat(FusionMethods.of("adaptive")).isInstanceOf(AdaptiveFusion.class);
        assertThat(FusionMethods.of("adaptive", new CalibratedFusion.Bonuses(0.2, 0)).name()).isEqualTo("adaptive");
        assertThat(FusionMethods.names()).containsExactly("adaptive", "calibrated", "weighted", "rrf");
        assertThatThrownBy(() -> FusionMethods.of("combsum")).hasMessageContaining("'combsum'");
        assertThatThrownBy(() -> FusionMethods.of(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
