package io.poimen.memory.retrieval.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.config.StrictYaml;
import io.poimen.memory.retrieval.RetrievalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recency and hit factors: the documented formula, off by default, and their policy keys read strictly. */
class RecencyAndHitsTest {
    private static final long DAY = 86_400_000L;
    private static final long NOW = 1_800_000_000_000L;

    @Test
    void theFormulaOfTheJavadoc() {
        RecencyAndHits f = new RecencyAndHits(0.5, 30, 0.2, 10);
        // changed now, never selected: 1 + 0.5
        assertThat(f.factor(NOW, 0, NOW)).isCloseTo(1.5, within(1e-12));
        // one half-life ago: 1 + 0.5 / 2; two half-lives: 1 + 0.5 / 4
        assertThat(f.factor(NOW - 30 * DAY, 0, NOW)).isCloseTo(1.25, within(1e-12));
        assertThat(f.factor(NOW - 60 * DAY, 0, NOW)).isCloseTo(1.125, within(1e-12));
        // time unknown: no recency term; selected half_count times: half the hit bonus
        assertThat(f.factor(-1, 10, NOW)).isCloseTo(1.1, within(1e-12));
        // both: the product; a time in the future counts as now
        assertThat(f.factor(NOW - 30 * DAY, 30, NOW)).isCloseTo(1.25 * (1 + 0.2 * 30 / 40.0), within(1e-12));
        assertThat(f.factor(NOW + DAY, 0, NOW)).isCloseTo(1.5, within(1e-12));
        // bounded by (1 + w_r)(1 + w_h), and monotone: newer and more selected never score lower
        assertThat(f.factor(NOW, Long.MAX_VALUE / 2, NOW)).isLessThanOrEqualTo(1.5 * 1.2);
        assertThat(f.factor(NOW - DAY, 5, NOW)).isGreaterThan(f.factor(NOW - 2 * DAY, 5, NOW))
                .isLessThan(f.factor(NOW - DAY, 6, NOW));
    }

    @Test
    void offByDefaultTheFactorIsExactlyOne() {
        assertThat(RetrievalSettings.defaults().recencyAndHits()).isEqualTo(RecencyAndHits.OFF);
        assertThat(RecencyAndHits.OFF.recencyOn()).isFalse();
        assertThat(RecencyAndHits.OFF.hitsOn()).isFalse();
        assertThat(RecencyAndHits.OFF.factor(NOW, 1_000, NOW)).isEqualTo(1.0);
        // one factor on leaves the other out
        assertThat(new RecencyAndHits(0.3, 30, 0, 10).factor(NOW, 1_000, NOW)).isCloseTo(1.3, within(1e-12));
        assertThat(new RecencyAndHits(0, 30, 0.3, 10).factor(NOW, 10, NOW)).isCloseTo(1.15, within(1e-12));
    }

    @Test
    void theShippedPolicyHasBothOffAndAnEditTurnsThemOn(@TempDir Path dir) throws Exception {
        String shipped = Files.readString(Path.of("policies/retrieval.yaml"));
        Path file = dir.resolve("retrieval.yaml");
        Files.writeString(file, shipped);
        assertThat(StrictYaml.parse(file, RetrievalSettings::fromYaml).recencyAndHits()).isEqualTo(RecencyAndHits.OFF);
        Files.writeString(file, shipped.replace("    weight: 0.0\n    half_life_days: 30",
                "    weight: 0.4\n    half_life_days: 14").replace("    weight: 0.0\n    half_count: 10",
                "    weight: 0.25\n    half_count: 3"));
        assertThat(StrictYaml.parse(file, RetrievalSettings::fromYaml).recencyAndHits())
                .isEqualTo(new RecencyAndHits(0.4, 14, 0.25, 3));
    }

    @Test
    void aBadValueOrKeyIsRejectedAtItsOwnKey(@TempDir Path dir) throws Exception {
        String shipped = Files.readString(Path.of("policies/retrieval.yaml"));
        Path file = dir.resolve("retrieval.yaml");
        /** {@code to} replaces {@code from}; the error is at {@code to}'s line {@code at} (from 0). */
        record Case(String from, String to, int at, String message) {
        }
        for (Case c : new Case[] {
                new Case("    weight: 0.0\n    half_life_days: 30", "    weight: -0.1\n    half_life_days: 30", 0,
                        "key 'boosts.recency.weight': weight must be a number ≥ 0, got -0.1"),
                new Case("half_life_days: 30", "half_life_days: 0", 0,
                        "key 'boosts.recency.half_life_days': half_life_days must be a number > 0, got 0.0"),
                new Case("    weight: 0.0\n    half_count: 10", "    weight: lots\n    half_count: 10", 0,
                        "key 'boosts.hits.weight': weight must be a number, got lots"),
                new Case("half_count: 10", "half_count: -3", 0,
                        "key 'boosts.hits.half_count': half_count must be a number > 0, got -3.0"),
                new Case("half_count: 10", "half_count: 10\n    decay: 2", 1, "unknown key 'boosts.hits.decay'")}) {
            assertThat(shipped).contains(c.from());
            Files.writeString(file, shipped.replace(c.from(), c.to()));
            int line = (int) shipped.substring(0, shipped.indexOf(c.from())).chars().filter(ch -> ch == '\n').count()
                    + 1 + c.at();
            assertThatThrownBy(() -> StrictYaml.parse(file, RetrievalSettings::fromYaml)).as(c.to())
                    .hasMessageContaining(file + ":" + line + ": ").hasMessageContaining(c.message());
        }
    }
}
