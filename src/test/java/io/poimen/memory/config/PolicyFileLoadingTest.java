package io.poimen.memory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.poimen.memory.health.PolicyFilesHealthIndicator;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.retrieval.RetrievalPolicy;
import io.poimen.memory.retrieval.RetrievalSettings;
import io.poimen.memory.retrieval.fusion.CalibratedFusion;
import io.poimen.memory.security.policy.AccessPolicy;
import io.poimen.memory.security.policy.PolicyDefaults;
import io.poimen.memory.security.policy.RoleModel;
import io.poimen.memory.security.policy.RolePolicy;
import io.poimen.memory.security.policy.VaultResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Status;
import org.springframework.util.FileSystemUtils;

/**
 * Policy files are read strictly: an unknown key or a value of the wrong type is rejected with its file, line and
 * key, and the version in force before stays (logged, in the health component and the gauge).
 */
class PolicyFileLoadingTest {
    @TempDir Path policies;

    @Test
    void theShippedPolicyFilesLoadStrictly() throws Exception {
        assertThat(StrictYaml.parse(Path.of("policies/retrieval.yaml"), RetrievalSettings::fromYaml)
                .minTokensForHybrid()).isEqualTo(3);
        assertThat(StrictYaml.parse(Path.of("policies/roles.yaml"), RoleModel::fromYaml).hierarchy())
                .contains("editor");
        assertThat(StrictYaml.parse(Path.of("policies/default.yaml"), PolicyDefaults::fromYaml)).isNotNull();
    }

    @Test
    void minTokensForHybridIsReadAndABadEditKeepsThePreviousVersion() throws Exception {
        FileSystemUtils.copyRecursively(Path.of("policies"), policies);
        Path file = policies.resolve("retrieval.yaml");
        String shipped = Files.readString(file);
        RetrievalPolicy policy = new RetrievalPolicy(policies);
        RolePolicy roles = new RolePolicy(policies);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PolicyFilesHealthIndicator health = new PolicyFilesHealthIndicator(policy, roles, new io.poimen.memory.security.policy.PolicyStore(policies, policies), registry);
        assertThat(policy.current().minTokensForHybrid()).isEqualTo(3);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);

        edit(file, shipped.replace("min_tokens_for_hybrid: 3", "min_tokens_for_hybrid: 5"), 1);
        assertThat(policy.current().minTokensForHybrid()).isEqualTo(5);

        // a typo in a key: rejected at its line, 5 stays in force
        int line = lineOf(shipped, "min_tokens_for_hybrid: 3");
        edit(file, shipped.replace("min_tokens_for_hybrid: 3", "min_tokens_for_hybird: 2"), 2);
        assertThat(policy.current().minTokensForHybrid()).isEqualTo(5);
        assertThat(policy.watched().error()).contains(file + ":" + line + ": unknown key 'min_tokens_for_hybird'");
        assertThat(health.health().getStatus().getCode()).isEqualTo("DEGRADED");
        assertThat(health.health().getDetails().get("retrieval.yaml").toString()).contains("min_tokens_for_hybird");
        assertThat(registry.get("poimen.policy.rejected").tag("file", "retrieval.yaml").gauge().value())
                .isEqualTo(1.0);

        // a nested unknown key and a wrong type, each at its line
        // (fusion.weights takes any branch name: a route may add a branch)
        edit(file, shipped.replace("    shingle_size: 5 ", "    shingle_sise: 5 "), 3);
        assertThat(policy.watched().error())
                .contains(":" + lineOf(shipped, "    shingle_size: 5 ") + ": unknown key 'selection.near_duplicate.shingle_sise'");
        edit(file, shipped.replace("top_k: 10 ", "top_k: ten "), 4);
        assertThat(policy.watched().error()).contains(":" + lineOf(shipped, "top_k: 10 ") + ": key 'selection.top_k'")
                .contains("must be a number");
        assertThat(policy.current().minTokensForHybrid()).isEqualTo(5);

        edit(file, shipped, 5);
        assertThat(policy.current().minTokensForHybrid()).isEqualTo(3);
        assertThat(policy.watched().error()).isNull();
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        assertThat(registry.get("poimen.policy.rejected").tag("file", "retrieval.yaml").gauge().value())
                .isEqualTo(0.0);
    }

    /**
     * {@code bonus_unit: auto} is resolved for the hub's model as each version of the file is read: spread for E5,
     * cosine for MiniLM; an edit to an explicit unit applies at once, and a bad one keeps the version in force.
     */
    @Test
    void theBonusUnitAutoIsResolvedForTheModelOnEveryReload() throws Exception {
        FileSystemUtils.copyRecursively(Path.of("policies"), policies);
        Path file = policies.resolve("retrieval.yaml");
        String shipped = Files.readString(file);
        RetrievalPolicy e5 = new RetrievalPolicy(policies, EmbeddingModelChoice.E5_SMALL_V2_Q);
        RetrievalPolicy minilm = new RetrievalPolicy(policies, EmbeddingModelChoice.ALL_MINILM_L6_V2_Q);
        assertThat(e5.current().calibration().unit()).isEqualTo(CalibratedFusion.Unit.SPREAD);
        assertThat(minilm.current().calibration().unit()).isEqualTo(CalibratedFusion.Unit.COSINE);
        assertThat(new RetrievalPolicy(policies).current().calibration().unit()).isEqualTo(CalibratedFusion.Unit.COSINE);

        edit(file, shipped.replace("    bonus_unit: auto\n", "    bonus_unit: cosine\n"), 1);
        assertThat(e5.current().calibration().unit()).isEqualTo(CalibratedFusion.Unit.COSINE);
        edit(file, shipped.replace("    bonus_unit: auto\n", "    bonus_unit: spread\n"), 2);
        assertThat(minilm.current().calibration().unit()).isEqualTo(CalibratedFusion.Unit.SPREAD);
        edit(file, shipped.replace("    bonus_unit: auto\n", "    bonus_unit: percent\n"), 3);
        assertThat(minilm.current().calibration().unit()).isEqualTo(CalibratedFusion.Unit.SPREAD);
        assertThat(minilm.watched().error()).contains(":" + lineOf(shipped, "    bonus_unit: auto") + ":")
                .contains("bonus_unit must be auto, cosine or spread, got percent");
        edit(file, shipped, 4);
        assertThat(e5.current().calibration().unit()).isEqualTo(CalibratedFusion.Unit.SPREAD);
        assertThat(minilm.current().calibration().unit()).isEqualTo(CalibratedFusion.Unit.COSINE);

        // without the file, the defaults: auto, resolved the same way
        Files.delete(file);
        assertThat(new RetrievalPolicy(policies, EmbeddingModelChoice.E5_SMALL_V2_Q).current().calibration().unit())
                .isEqualTo(CalibratedFusion.Unit.SPREAD);
    }

    /** The mechanism of the access policies (LastGoodYamlFiles): broken since start keeps the defaults, reported. */
    @Test
    void aFileBrokenSinceStartKeepsTheDefaultsAndAnEditOfTheSameTimeIsSeenByItsSize() throws Exception {
        Path file = policies.resolve("roles.yaml");
        Files.writeString(file, "version: 1\ngroups_claim: groups\nrole_permisions:\n  viewer: [memory:read]\n");
        RolePolicy roles = new RolePolicy(policies);
        assertThat(roles.get().hierarchy()).isEqualTo(RoleModel.defaults().hierarchy());
        assertThat(roles.watched().error()).isEqualTo(file + ":3: unknown key 'role_permisions'");
        FileTime same = Files.getLastModifiedTime(file);
        Files.writeString(file, "version: 1\ngroups_claim: teams\n");
        Files.setLastModifiedTime(file, same);
        assertThat(roles.get().groupsClaim()).isEqualTo("teams");
        assertThat(roles.watched().error()).isNull();
    }

    @Test
    void rolesAndVersionAreCheckedToo() throws Exception {
        Path file = policies.resolve("roles.yaml");
        Files.writeString(file, "version: 1\ngroups_claim: groups\nrole_permisions:\n  viewer: [memory:read]\n");
        assertThatThrownBy(() -> StrictYaml.parse(file, RoleModel::fromYaml))
                .hasMessage(file + ":3: unknown key 'role_permisions'");
        Files.writeString(file, "version: 2\n");
        assertThatThrownBy(() -> StrictYaml.parse(file, RoleModel::fromYaml))
                .hasMessageContaining(file + ":1: key 'version': must be 1");
        Files.writeString(file, "groups_claim: [a, b]\n");
        assertThatThrownBy(() -> StrictYaml.parse(file, RoleModel::fromYaml))
                .hasMessageContaining(file + ":1: key 'groups_claim': groups_claim must be a string");
    }

    @Test
    void aVaultAccessPolicyWithAnUnknownKeyIsRejectedAtItsLine() throws Exception {
        Path file = policies.resolve("_access.yaml");
        Files.writeString(file, "project: rust-guide\naccess_level: group\nalowed_groups: [rust-learners]\n");
        assertThatThrownBy(() -> StrictYaml.parse(file, y -> AccessPolicy.fromYaml(y, VaultResource.project("rust-guide"))))
                .hasMessage(file + ":3: unknown key 'alowed_groups'");
        for (Path shipped : java.nio.file.Files.walk(Path.of("examples/vault"))
                .filter(p -> p.getFileName().toString().equals("_access.yaml")).toList()) {
            String folder = shipped.getParent().getFileName().toString();
            VaultResource unit = shipped.toString().contains("/skills/") ? VaultResource.skill(folder)
                    : VaultResource.project(folder);
            AccessPolicy policy = StrictYaml.parse(shipped, y -> AccessPolicy.fromYaml(y, unit));
            assertThat(policy.level()).as(shipped.toString()).isNotNull();
        }
    }

    private static int lineOf(String text, String needle) {
        return text.substring(0, text.indexOf(needle)).split("\n", -1).length;
    }

    /** Writes and moves the modification time forward, so the one-stat check sees the change at once. */
    private static void edit(Path file, String content, int step) throws Exception {
        Files.writeString(file, content);
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(step)));
    }
}
