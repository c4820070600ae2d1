package io.poimen.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.vault.LinkType;
import io.poimen.memory.vault.WikiLink;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The homelab vault of the design notes (Phase 1), as resolved links. */
class LinkGraphTest {
    static final String P_INDEX = "projects/poimen/index.md";
    static final String KUBECTL = "projects/poimen/tools/kubectl.md";
    static final String POD_CRASHES = "projects/poimen/debugging/pod-crashes.md";
    static final String P_OWNERSHIP = "projects/poimen/memories/ownership.md";
    static final String R_INDEX = "projects/rust-guide/index.md";
    static final String R_OWNERSHIP = "projects/rust-guide/memories/ownership.md";
    static final String PATTERNS = "shared/concepts/design-patterns.md";
    static final String SKILL = "shared/skills/SKILL-kubernetes-debugging/SKILL.md";
    static final List<String> NOTES = List.of(P_INDEX, KUBECTL, POD_CRASHES, P_OWNERSHIP, R_INDEX, R_OWNERSHIP,
            PATTERNS, SKILL);

    static WikiLink link(String from, String to) {
        return new WikiLink(from, to, to, null, null, null, false, LinkType.MEMORY, to);
    }

    static WikiLink unresolved(String from, String target) {
        return new WikiLink(from, target, target, null, null, null, false, LinkType.UNKNOWN, null);
    }

    static List<WikiLink> homelabLinks() {
        return new ArrayList<>(List.of(
                link(P_INDEX, KUBECTL), link(P_INDEX, P_OWNERSHIP),
                link(KUBECTL, POD_CRASHES), link(KUBECTL, SKILL),
                link(POD_CRASHES, P_OWNERSHIP),
                link(P_OWNERSHIP, KUBECTL),
                link(R_INDEX, R_OWNERSHIP),
                link(R_OWNERSHIP, PATTERNS),
                link(SKILL, KUBECTL)));
    }

    static LinkGraph homelab() {
        return LinkGraph.of(NOTES, homelabLinks());
    }

    @Test
    void reachableFollowsLinksTransitivelyAndIncludesTheStart() {
        LinkGraph g = homelab();
        assertThat(g.reachable(List.of(P_INDEX)))
                .containsExactlyInAnyOrder(P_INDEX, KUBECTL, P_OWNERSHIP, POD_CRASHES, SKILL);
        assertThat(g.reachable(List.of(R_INDEX))).containsExactlyInAnyOrder(R_INDEX, R_OWNERSHIP, PATTERNS);
        assertThat(g.reachable(List.of(PATTERNS))).containsExactly(PATTERNS);
    }

    @Test
    void cyclesTerminate() {
        // kubectl → pod-crashes → ownership → kubectl, and kubectl ↔ SKILL
        LinkGraph g = homelab();
        assertThat(g.reachable(List.of(P_OWNERSHIP)))
                .containsExactlyInAnyOrder(P_OWNERSHIP, KUBECTL, POD_CRASHES, SKILL);
    }

    @Test
    void backlinksAreTheReverseGraph() {
        LinkGraph g = homelab();
        assertThat(g.backlinks(KUBECTL)).containsExactly(P_INDEX, P_OWNERSHIP, SKILL);
        assertThat(g.backlinks(PATTERNS)).containsExactly(R_OWNERSHIP);
        assertThat(g.backlinks(R_INDEX)).isEmpty();
        for (String n : NOTES) {
            for (String target : g.outgoing(n)) {
                assertThat(g.backlinks(target)).contains(n);
            }
        }
    }

    @Test
    void projectScopeKeepsOwnNotesAndReachableSharedOnly() {
        LinkGraph g = homelab();
        assertThat(g.projectScope("poimen"))
                .containsExactlyInAnyOrder(P_INDEX, KUBECTL, POD_CRASHES, P_OWNERSHIP, SKILL);
        assertThat(g.projectScope("rust-guide")).containsExactlyInAnyOrder(R_INDEX, R_OWNERSHIP, PATTERNS);
        assertThat(g.projects()).containsExactly("poimen", "rust-guide");
    }

    @Test
    void sharedNoteLinkingIntoAnotherProjectDoesNotLeakIt() {
        List<WikiLink> links = homelabLinks();
        links.add(link(R_OWNERSHIP, SKILL)); // SKILL links on to poimen's kubectl
        LinkGraph g = LinkGraph.of(NOTES, links);
        assertThat(g.projectScope("rust-guide")).containsExactlyInAnyOrder(R_INDEX, R_OWNERSHIP, PATTERNS, SKILL);
        assertThat(g.projectScope("poimen")).doesNotContain(PATTERNS, R_INDEX, R_OWNERSHIP);
    }

    @Test
    void selfLinksAttachmentsAndUnresolvedLinksAreNotEdges() {
        List<WikiLink> links = homelabLinks();
        links.add(link(PATTERNS, PATTERNS));
        links.add(link(PATTERNS, "shared/concepts/diagram.png"));
        WikiLink missing = unresolved(PATTERNS, "no-such-note");
        links.add(missing);
        LinkGraph g = LinkGraph.of(NOTES, links);
        assertThat(g.outgoing(PATTERNS)).isEmpty();
        assertThat(g.edgeCount()).isEqualTo(homelab().edgeCount());
        assertThat(g.unresolvedLinks()).containsExactly(missing);
    }

    @Test
    void unknownPathsAndEmptyGraphAnswerEmpty() {
        assertThat(homelab().outgoing("nope.md")).isEmpty();
        assertThat(LinkGraph.empty().projectScope("poimen")).isEmpty();
        assertThat(LinkGraph.empty().reachable(Set.of("a.md"))).containsExactly("a.md");
    }

    @Test
    void rejectsNullInput() {
        assertThatThrownBy(() -> LinkGraph.of(NOTES, null)).isInstanceOf(NullPointerException.class);
        List<String> withNull = new ArrayList<>(NOTES);
        withNull.add(null);
        assertThatThrownBy(() -> LinkGraph.of(withNull, List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void serviceSwapsSnapshots() {
        GraphService service = new GraphService();
        assertThat(service.current().notes()).isEmpty();
        LinkGraph g = homelab();
        service.replace(g);
        assertThat(service.current()).isSameAs(g);
        assertThatThrownBy(() -> service.replace(null)).isInstanceOf(NullPointerException.class);
    }
}
