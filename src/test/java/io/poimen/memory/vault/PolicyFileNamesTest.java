package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PolicyFileNamesTest {

    @ParameterizedTest
    @ValueSource(strings = {"_access.yml", "_ACCESS.yaml", "_Access.YAML", "_access.YML", "access.yaml", "access.yml",
            "ACCESS.YAML", "_access.yaml.bak", "_access.yml.orig", "_access.yaml~", "_access.yaml.md",
            "\uFF3F\uFF41ccess.yaml"})
    void nearMissesOfThePolicyFileName(String name) {
        assertThat(PolicyFileNames.nearMiss(name)).isTrue();
        assertThat(PolicyFileNames.policyName(name)).isTrue();
        assertThat(VaultPaths.isNote("projects/p/" + name)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"access-control.md", "access.md", "_access.json", "my_access.yaml", "access.yaml.bak",
            "_accessibility.yaml", "README.md", "_access"})
    void otherNamesAreNot(String name) {
        assertThat(PolicyFileNames.nearMiss(name)).isFalse();
    }

    @org.junit.jupiter.api.Test
    void thePolicyFileItselfIsNoNearMissAndNoNote() {
        assertThat(PolicyFileNames.nearMiss("_access.yaml")).isFalse();
        assertThat(PolicyFileNames.policyName("_access.yaml")).isTrue();
        assertThat(VaultPaths.isNote("projects/p/_access.yaml")).isFalse();
        assertThat(VaultPaths.isNote("projects/p/access.md")).isTrue();
    }
}
