package io.poimen.memory.security;

import io.poimen.memory.security.policy.VaultResource;
import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.vault.VaultPaths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scope and IDF caches ask the read predicate once per {@link VaultPaths#accessGroupOf access group}: that is
 * sound only if every note of a group belongs to the same {@link VaultResource} (the unit of a decision).
 */
class AccessGroupsTest {

    @Test
    void notesOfOneAccessGroupShareTheirResourceAndSkillFilesAreTheirOwnGroup() {
        List<String> folders = List.of("", "projects", "projects/p", "projects/p/a", "projects/p/a/b", "projects/q",
                "shared", "shared/concepts", "shared/concepts/deep", "shared/skills", "shared/skills/SKILL-x",
                "shared/skills/SKILL-x/refs", "shared/skills/SKILL-y", "notes", "notes/sub");
        List<String> files = List.of("a.md", "b.md", "SKILL-x.md", "SKILL-y.md", "README.md");
        Map<String, VaultResource> byGroup = new HashMap<>();
        List<String> paths = new ArrayList<>();
        for (String folder : folders) {
            for (String file : files) {
                paths.add(folder.isEmpty() ? file : folder + "/" + file);
            }
        }
        for (String path : paths) {
            VaultResource resource = VaultResource.of(path);
            VaultResource seen = byGroup.putIfAbsent(VaultPaths.accessGroupOf(path), resource);
            assertThat(seen == null ? resource : seen).as(path).isEqualTo(resource);
        }
        assertThat(VaultPaths.accessGroupOf("shared/skills/SKILL-x.md"))
                .isNotEqualTo(VaultPaths.accessGroupOf("shared/skills/SKILL-y.md"));
        assertThat(VaultResource.of("shared/skills/SKILL-x.md")).isNotEqualTo(VaultResource.of("shared/skills/SKILL-y.md"));
    }
}
