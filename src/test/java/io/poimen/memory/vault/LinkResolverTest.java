package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LinkResolverTest {
    private static final List<String> VAULT = List.of(
            "projects/poimen/index.md",
            "projects/poimen/tools/kubectl.md",
            "projects/poimen/debugging/pod-crashes.md",
            "projects/poimen/memories/ownership.md",
            "projects/poimen/assets/Diagram.png",
            "projects/rust-guide/index.md",
            "projects/rust-guide/memories/ownership.md",
            "projects/rust-guide/docs/spec.pdf",
            "shared/concepts/design-patterns.md",
            "shared/skills/SKILL-kubernetes-debugging/SKILL.md",
            "shared/skills/SKILL-kubernetes-debugging/_access.yaml",
            "top.md");
    private final LinkResolver resolver = LinkResolver.of(VAULT,
            Map.of("shared/concepts/design-patterns.md", List.of("Patterns", "GoF")));
    private final WikiLinkParser parser = new WikiLinkParser();

    private WikiLink resolve(String source, String link) {
        List<WikiLink> links = parser.parse(source, link);
        assertThat(links).hasSize(1);
        return resolver.resolve(links.get(0));
    }

    @Test
    void relativeToSourceFolder() {
        WikiLink l = resolve("projects/poimen/tools/kubectl.md", "[[../debugging/pod-crashes.md]]");
        assertThat(l.resolvedPath()).isEqualTo("projects/poimen/debugging/pod-crashes.md");
        assertThat(l.type()).isEqualTo(LinkType.MEMORY);
        assertThat(resolve("projects/poimen/index.md", "[[./tools/kubectl]]").resolvedPath())
                .isEqualTo("projects/poimen/tools/kubectl.md");
    }

    @Test
    void relativeToSkillFolderNote() {
        WikiLink l = resolve("projects/poimen/tools/kubectl.md", "[[../../../shared/skills/SKILL-kubernetes-debugging]]");
        assertThat(l.resolvedPath()).isEqualTo("shared/skills/SKILL-kubernetes-debugging/SKILL.md");
        assertThat(l.type()).isEqualTo(LinkType.SKILL);
    }

    @Test
    void brokenRelativePathFallsBackToNameMatch() {
        // the notes' example climbs one level too few; Obsidian still finds the note by its path tail
        WikiLink l = resolve("projects/poimen/debugging/pod-crashes.md", "[[../../memories/ownership.md]]");
        assertThat(l.resolvedPath()).isEqualTo("projects/poimen/memories/ownership.md");
    }

    @Test
    void vaultAbsoluteWithAndWithoutExtension() {
        assertThat(resolve("projects/rust-guide/index.md", "[[projects/poimen/tools/kubectl]]").resolvedPath())
                .isEqualTo("projects/poimen/tools/kubectl.md");
        assertThat(resolve("top.md", "[[shared/concepts/design-patterns.md]]").resolvedPath())
                .isEqualTo("shared/concepts/design-patterns.md");
    }

    @Test
    void pathSuffixMatch() {
        WikiLink l = resolve("top.md", "[[tools/kubectl]]");
        assertThat(l.resolvedPath()).isEqualTo("projects/poimen/tools/kubectl.md");
        assertThat(l.type()).isEqualTo(LinkType.TOOL);
    }

    @Test
    void bareUniqueNameAnywhereCaseInsensitive() {
        assertThat(resolve("top.md", "[[Pod-Crashes]]").resolvedPath())
                .isEqualTo("projects/poimen/debugging/pod-crashes.md");
        assertThat(resolve("top.md", "[[KUBECTL.md]]").resolvedPath()).isEqualTo("projects/poimen/tools/kubectl.md");
    }

    @Test
    void bareTieGoesToClosestThenShortestThenAlphabetical() {
        assertThat(resolve("projects/rust-guide/docs/x.md", "[[ownership]]").resolvedPath())
                .isEqualTo("projects/rust-guide/memories/ownership.md");
        assertThat(resolve("projects/poimen/index.md", "[[ownership]]").resolvedPath())
                .isEqualTo("projects/poimen/memories/ownership.md");
        // no folder in common with either: the shorter path wins
        assertThat(resolve("top.md", "[[ownership]]").resolvedPath())
                .isEqualTo("projects/poimen/memories/ownership.md");
        // same common prefix and length: alphabetical
        LinkResolver twins = LinkResolver.of(List.of("b/x/note.md", "a/x/note.md", "c/z/note.md"), Map.of());
        WikiLink l = parser.parse("c/y.md", "[[note]]").get(0);
        assertThat(twins.resolve(l).resolvedPath()).isEqualTo("c/z/note.md");
        WikiLink far = parser.parse("d/y.md", "[[note]]").get(0);
        assertThat(twins.resolve(far).resolvedPath()).isEqualTo("a/x/note.md");
    }

    @Test
    void markdownLinksResolveVaultWideLikeWikiLinks() {
        // a bare file name is looked up anywhere in the vault, as Obsidian writes "shortest path" links
        assertThat(resolve("top.md", "[kubectl](kubectl.md)").resolvedPath()).isEqualTo("projects/poimen/tools/kubectl.md");
        // a path is a vault path, not relative to the source folder
        assertThat(resolve("projects/rust-guide/index.md", "![diagram](projects/poimen/assets/Diagram.png)")
                .resolvedPath()).isEqualTo("projects/poimen/assets/Diagram.png");
        // an explicit relative path is relative to the source folder
        assertThat(resolve("projects/poimen/tools/kubectl.md", "[crash](../debugging/pod-crashes.md#Logs)")
                .resolvedPath()).isEqualTo("projects/poimen/debugging/pod-crashes.md");
        // percent-encoded names decode before the lookup
        LinkResolver spaced = LinkResolver.of(List.of("notes/Team Runbook.md"), Map.of());
        WikiLink l = spaced.resolve(parser.parse("index.md", "[runbook](Team%20Runbook.md)").get(0));
        assertThat(l.resolvedPath()).isEqualTo("notes/Team Runbook.md");
        assertThat(l.type()).isEqualTo(LinkType.MEMORY);
        assertThat(resolve("top.md", "[same page](#Install)").resolvedPath()).isEqualTo("top.md");
        assertThat(resolve("top.md", "[gone](nowhere.md)").resolved()).isFalse();
    }

    @Test
    void aliasesFromFrontMatter() {
        WikiLink l = resolve("projects/poimen/index.md", "[[patterns]]");
        assertThat(l.resolvedPath()).isEqualTo("shared/concepts/design-patterns.md");
        assertThat(l.type()).isEqualTo(LinkType.SHARED_CONCEPT);
    }

    @Test
    void attachmentsByFileNameWithExtension() {
        WikiLink png = resolve("projects/poimen/index.md", "![[diagram.png]]");
        assertThat(png.resolvedPath()).isEqualTo("projects/poimen/assets/Diagram.png");
        assertThat(png.type()).isEqualTo(LinkType.UNKNOWN);
        assertThat(resolve("top.md", "[[spec.pdf]]").resolvedPath()).isEqualTo("projects/rust-guide/docs/spec.pdf");
    }

    /** Obsidian's three forms for an embedded image: a bare name, a path relative to the note, a vault path. */
    @Test
    void embeddedImagesByBareNameRelativePathAndVaultPath() {
        String note = "projects/poimen/tools/kubectl.md";
        assertThat(resolve(note, "![[Diagram.png|300]]").resolvedPath()).isEqualTo("projects/poimen/assets/Diagram.png");
        assertThat(resolve(note, "![flow](../assets/Diagram.png)").resolvedPath())
                .isEqualTo("projects/poimen/assets/Diagram.png");
        assertThat(resolve(note, "![flow](assets/Diagram.png \"the flow\")").resolvedPath())
                .isEqualTo("projects/poimen/assets/Diagram.png");
        assertThat(resolve(note, "![flow](/projects/poimen/assets/Diagram.png)").resolvedPath())
                .isEqualTo("projects/poimen/assets/Diagram.png");
        assertThat(resolve(note, "![[projects/rust-guide/docs/spec.pdf]]").resolvedPath())
                .isEqualTo("projects/rust-guide/docs/spec.pdf");
        assertThat(resolve(note, "![[missing-diagram.png]]").resolved()).isFalse();
        assertThat(resolve(note, "![gone](../assets/gone.png)").resolved()).isFalse();
    }

    /** The hub serves a policy file to no one: a link to one is unresolved (and so reported), never a path. */
    @Test
    void aPolicyFileIsNeverALinkTarget() {
        assertThat(resolve("top.md", "![[_access.yaml]]").resolved()).isFalse();
        assertThat(resolve("top.md", "[[shared/skills/SKILL-kubernetes-debugging/_access.yaml]]").resolved()).isFalse();
        LinkResolver nearMiss = LinkResolver.of(List.of("p/_access.yaml.png", "p/access.yml", "p/plan.png"), Map.of());
        assertThat(nearMiss.resolve(parser.parse("p/n.md", "![[_access.yaml.png]]").get(0)).resolved()).isFalse();
        assertThat(nearMiss.resolve(parser.parse("p/n.md", "[[access.yml]]").get(0)).resolved()).isFalse();
        assertThat(nearMiss.resolve(parser.parse("p/n.md", "![[plan.png]]").get(0)).resolvedPath())
                .isEqualTo("p/plan.png");
    }

    @Test
    void sharedPrefixAndSkillName() {
        WikiLink prefixed = resolve("projects/poimen/index.md", "[[shared:skills/SKILL-kubernetes-debugging]]");
        assertThat(prefixed.resolvedPath()).isEqualTo("shared/skills/SKILL-kubernetes-debugging/SKILL.md");
        assertThat(prefixed.type()).isEqualTo(LinkType.SKILL);
        assertThat(resolve("top.md", "[[SKILL-kubernetes-debugging]]").resolvedPath())
                .isEqualTo("shared/skills/SKILL-kubernetes-debugging/SKILL.md");
        assertThat(resolve("top.md", "[[shared:concepts/design-patterns]]").type()).isEqualTo(LinkType.SHARED_CONCEPT);
        LinkResolver projectSkill = LinkResolver.of(List.of("projects/p/SKILL-local.md"), Map.of("projects/p/SKILL-local.md",
                List.of("local skill")));
        assertThat(projectSkill.resolve(parser.parse("top.md", "[[SKILL-local]]").get(0)).type()).isEqualTo(LinkType.SKILL);
        WikiLink viaAlias = projectSkill.resolve(parser.parse("top.md", "[[local skill]]").get(0));
        assertThat(viaAlias.resolvedPath()).isEqualTo("projects/p/SKILL-local.md");
        assertThat(viaAlias.type()).isEqualTo(LinkType.SKILL);
    }

    @Test
    void headingOnlyLinkIsTheSourceItself() {
        WikiLink l = resolve("projects/poimen/tools/kubectl.md", "[[#Logs]]");
        assertThat(l.resolvedPath()).isEqualTo("projects/poimen/tools/kubectl.md");
        assertThat(l.heading()).isEqualTo("Logs");
        assertThat(l.type()).isEqualTo(LinkType.TOOL);
    }

    @Test
    void unresolvedIsKeptWithInferredType() {
        WikiLink missing = resolve("top.md", "[[nowhere.md]]");
        assertThat(missing.resolved()).isFalse();
        assertThat(missing.type()).isEqualTo(LinkType.MEMORY);
        WikiLink skill = resolve("top.md", "[[SKILL-missing]]");
        assertThat(skill.resolvedPath()).isNull();
        assertThat(skill.type()).isEqualTo(LinkType.SKILL);
        assertThat(resolve("top.md", "[[../../../../above-root]]").resolvedPath()).isNull();
        assertThat(resolve("top.md", "[[nothing-like-this]]").type()).isEqualTo(LinkType.UNKNOWN);
    }

    @Test
    void resolveAllKeepsOrderAndUnresolved() {
        List<WikiLink> links = resolver.resolveAll(parser.parse("top.md", "[[kubectl]] [[ghost]] [[top]]"));
        assertThat(links).extracting(WikiLink::resolvedPath)
                .containsExactly("projects/poimen/tools/kubectl.md", null, "top.md");
    }

    @Test
    void candidatesAreTheFirstMatchingRulesNotesWithoutChoosing() {
        // two notes named ownership: a link picks the closer one, a read by name shows both
        assertThat(resolver.candidates("ownership", p -> true))
                .containsExactly("projects/poimen/memories/ownership.md", "projects/rust-guide/memories/ownership.md");
        assertThat(resolver.candidates("pod-crashes", p -> true))
                .containsExactly("projects/poimen/debugging/pod-crashes.md");
        assertThat(resolver.candidates("gof", p -> true)).containsExactly("shared/concepts/design-patterns.md");
        assertThat(resolver.candidates("SKILL-kubernetes-debugging", p -> true))
                .containsExactly("shared/skills/SKILL-kubernetes-debugging/SKILL.md");
        // an exact path is the first rule: the other notes of that name are not candidates
        assertThat(resolver.candidates("projects/rust-guide/memories/ownership", p -> true))
                .containsExactly("projects/rust-guide/memories/ownership.md");
        assertThat(resolver.candidates("shared/skills/SKILL-kubernetes-debugging/_access.yaml", p -> true)).isEmpty();
        assertThat(resolver.candidates("ghost", p -> true)).isEmpty();
    }

    @Test
    void candidatesSkipWhatIsNotEligibleAsIfItDidNotExist() {
        assertThat(resolver.candidates("ownership", p -> !p.startsWith("projects/rust-guide/")))
                .containsExactly("projects/poimen/memories/ownership.md");
        assertThat(resolver.candidates("pod-crashes", p -> !p.startsWith("projects/poimen/"))).isEmpty();
        // the exact path is not eligible: the next rule decides, exactly as if that note were missing
        LinkResolver twoRules = LinkResolver.of(List.of("projects/a/x.md", "projects/b/notes/projects/a/x.md"),
                Map.of());
        assertThat(twoRules.candidates("projects/a/x", p -> true)).containsExactly("projects/a/x.md");
        assertThat(twoRules.candidates("projects/a/x", p -> !p.equals("projects/a/x.md")))
                .containsExactly("projects/b/notes/projects/a/x.md");
        assertThat(LinkResolver.of(List.of("projects/b/notes/projects/a/x.md"), Map.of())
                .candidates("projects/a/x", p -> true)).containsExactly("projects/b/notes/projects/a/x.md");
    }
}
