package io.poimen.memory.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.config.StrictYaml;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.RetrievalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adaptive gate is set in policies/retrieval.yaml ({@code fusion.adaptive}), read strictly. The tests set the
 * values they need in a copy of the shipped file, whatever its tuning is.
 */
class AdaptiveGatePolicyTest {
    private static final Pattern FULL_RATIO = Pattern.compile("(?m)^    full_ratio: .*$");
    private static final Pattern BONUS_UNIT = Pattern.compile("(?m)^    bonus_unit: .*$");
    private static final Pattern LEXICAL_LEAD = Pattern.compile("(?m)^    lexical_lead: .*$");
    private static final Pattern MODEL_SCRIPTS = Pattern.compile("(?m)^    model_scripts: .*$");
    private static final Pattern KEEP_COVERAGE = Pattern.compile("(?m)^    keep_coverage: .*$");
    @TempDir Path dir;

    private static List<Hit> list(String prefix, int from, int n, double top, double step) {
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hits.add(new Hit(prefix + (from + i), top - i * step));
        }
        return hits;
    }

    /** BM25 and TF-IDF agree on d0..d29; the semantic list starts with half of them, then returns its own. */
    private static List<BranchResult> lists() {
        List<Hit> semantic = list("d", 0, 15, 0.6, 0.01);
        semantic.addAll(list("s", 0, 15, 0.45, 0.01));
        return List.of(BranchResult.ok(Branch.LEXICAL, list("d", 0, 30, 30.0, 0.9), 1),
                BranchResult.ok(Branch.TFIDF, list("d", 0, 30, 9.0, 0.2), 1),
                BranchResult.ok(Branch.SEMANTIC, semantic, 1));
    }

    private static String shipped() throws Exception {
        String shipped = Files.readString(Path.of("policies/retrieval.yaml"));
        assertThat(FULL_RATIO.matcher(shipped).results().count()).as("one fusion.adaptive.full_ratio").isEqualTo(1);
        assertThat(BONUS_UNIT.matcher(shipped).results().count()).as("one bonus_unit").isEqualTo(1);
        return shipped;
    }

    /** The shipped policy with the line {@code pattern} matches replaced by {@code replacement}. */
    private RetrievalSettings load(Pattern pattern, String replacement) throws Exception {
        Path file = dir.resolve("retrieval.yaml");
        Files.writeString(file, pattern.matcher(shipped()).replaceFirst(replacement));
        return StrictYaml.parse(file, RetrievalSettings::fromYaml);
    }

    /** The top result's semantic weight, the policy's bonus unit resolved for the default model (as the hub does). */
    private static double semanticWeight(RetrievalSettings read) {
        RetrievalSettings s = read.forModel(EmbeddingModelChoice.defaultChoice());
        FusionMethod m = FusionMethods.of(s.fusion().method(), s.calibration(), s.gate());
        return m.fuse(lists(), s.fusion()).get(0).weights().get("semantic");
    }

    @Test
    void movingTheFullRatioInThePolicyMovesTheWeights() throws Exception {
        RetrievalSettings gentle = load(FULL_RATIO, "    full_ratio: 0.5");
        RetrievalSettings hard = load(FULL_RATIO, "    full_ratio: 1.0");
        assertThat(gentle.gate().fullRatio()).isEqualTo(0.5);
        assertThat(hard.gate().fullRatio()).isEqualTo(1.0);
        assertThat(gentle.gate().power()).isEqualTo(hard.gate().power());
        double wGentle = semanticWeight(gentle);
        double wHard = semanticWeight(hard);
        // a harder gate asks more agreement of the semantic list before it keeps its weight
        assertThat(wHard).isLessThan(wGentle - 0.05);
    }

    @Test
    void aBadGateValueOrKeyIsRejectedWithItsLineAndKey() throws Exception {
        String shipped = shipped();
        Matcher at = FULL_RATIO.matcher(shipped);
        assertThat(at.find()).isTrue();
        int line = (int) shipped.substring(0, at.start()).lines().count() + 1;
        assertThatThrownBy(() -> load(FULL_RATIO, "    full_ratio: 1.5"))
                .isInstanceOf(StrictYaml.PolicyFileException.class)
                .hasMessageContaining("full_ratio must be in (0, 1]");
        assertThatThrownBy(() -> load(FULL_RATIO, "    fullratio: 0.4"))
                .isInstanceOf(StrictYaml.PolicyFileException.class)
                .hasMessageContaining(":" + line + ": unknown key 'fusion.adaptive.fullratio'");
    }

    @Test
    void theBonusUnitIsReadFromThePolicyAndABadOneIsRejected() throws Exception {
        assertThat(load(BONUS_UNIT, "    bonus_unit: spread").calibration().unit())
                .isEqualTo(CalibratedFusion.Unit.SPREAD);
        assertThat(load(BONUS_UNIT, "    bonus_unit: cosine").calibration().unit())
                .isEqualTo(CalibratedFusion.Unit.COSINE);
        assertThatThrownBy(() -> load(BONUS_UNIT, "    bonus_unit: percent"))
                .isInstanceOf(StrictYaml.PolicyFileException.class)
                .hasMessageContaining("bonus_unit must be auto, cosine or spread, got percent");
    }

    /** The shipped policy says auto, and a policy without the key means auto too. */
    @Test
    void theShippedBonusUnitIsAutoAndSoIsAMissingOne() throws Exception {
        assertThat(load(BONUS_UNIT, "    bonus_unit: auto").calibration().unit()).isEqualTo(CalibratedFusion.Unit.AUTO);
        assertThat(StrictYaml.parse(Path.of("policies/retrieval.yaml"), RetrievalSettings::fromYaml).calibration()
                .unit()).isEqualTo(CalibratedFusion.Unit.AUTO);
        assertThat(load(BONUS_UNIT, "").calibration().unit()).isEqualTo(CalibratedFusion.Unit.AUTO);
    }

    @Test
    void theLexicalLeadIsReadFromThePolicyAndABadOneIsRejected() throws Exception {
        assertThat(LEXICAL_LEAD.matcher(shipped()).results().count()).as("one lexical_lead").isEqualTo(1);
        assertThat(load(LEXICAL_LEAD, "    lexical_lead: 0.4").gate().lexicalLead()).isEqualTo(0.4);
        assertThat(load(LEXICAL_LEAD, "    lexical_lead: 0").gate().lexicalLead()).isZero();
        assertThatThrownBy(() -> load(LEXICAL_LEAD, "    lexical_lead: 2"))
                .isInstanceOf(StrictYaml.PolicyFileException.class)
                .hasMessageContaining("lexical_lead must be in [0, 1]");
    }

    @Test
    void theCoverageKeepIsReadFromThePolicyAndABadOneIsRejected() throws Exception {
        assertThat(KEEP_COVERAGE.matcher(shipped()).results().count()).as("one keep_coverage").isEqualTo(1);
        assertThat(load(KEEP_COVERAGE, "    keep_coverage: 0.7").gate().keepCoverage()).isEqualTo(0.7);
        assertThat(load(KEEP_COVERAGE, "    keep_coverage: 0").gate().keepCoverage()).isZero();
        assertThat(load(KEEP_COVERAGE, "").gate().keepCoverage())
                .isEqualTo(AdaptiveFusion.Gate.DEFAULT_KEEP_COVERAGE);
        assertThatThrownBy(() -> load(KEEP_COVERAGE, "    keep_coverage: -0.5"))
                .isInstanceOf(StrictYaml.PolicyFileException.class)
                .hasMessageContaining("keep_coverage must be in [0, 1]");
    }

    @Test
    void theModelScriptsSwitchIsReadFromThePolicyAndABadOneIsRejected() throws Exception {
        assertThat(MODEL_SCRIPTS.matcher(shipped()).results().count()).as("one model_scripts").isEqualTo(1);
        assertThat(load(MODEL_SCRIPTS, "    model_scripts: false").gate().modelScripts()).isFalse();
        assertThat(load(MODEL_SCRIPTS, "    model_scripts: true").gate().modelScripts()).isTrue();
        assertThatThrownBy(() -> load(MODEL_SCRIPTS, "    model_scripts: 1"))
                .isInstanceOf(StrictYaml.PolicyFileException.class)
                .hasMessageContaining("model_scripts must be true or false, got 1");
    }
}
