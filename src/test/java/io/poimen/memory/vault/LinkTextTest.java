package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LinkTextTest {

    @Test
    void aLinksReferenceLeavesTheOwnTextForTheReferences() {
        LinkText t = LinkText.of("For crashes at start, see [[pod-crashes#CrashLoopBackOff]]. The procedure is "
                + "[[../../../shared/skills/SKILL-kubernetes-debugging/SKILL.md]].");
        assertThat(t.own()).isEqualTo("For crashes at start, see pod-crashes. The procedure is SKILL.");
        assertThat(t.references()).isEqualTo(
                "pod-crashes CrashLoopBackOff\n../../../shared/skills/SKILL-kubernetes-debugging/SKILL.md");
        assertThat(Terms.analyze(t.own())).doesNotContain("crashloopbackoff", "kubernet");
    }

    @Test
    void anAliasOrMarkdownLinkTextStaysTextAndItsTargetBecomesAReference() {
        LinkText t = LinkText.of("Read [[kubectl#^logs-previous|the previous logs]] or [the guide](Pod%20crashes.md#OOMKilled "
                + "\"title\") and ![[diagram.png|300]].");
        assertThat(t.own()).isEqualTo("Read the previous logs or the guide and 300.");
        assertThat(t.references()).isEqualTo("kubectl logs-previous\nPod crashes.md OOMKilled\ndiagram.png");
    }

    @Test
    void aLinkIntoTheSameNoteStandsForNothingAndExternalOrCodeLinksStayAsWritten() {
        LinkText t = LinkText.of("See [[#OOMKilled]], https://example.org/[[x]] is text, `[[code]]`, "
                + "[site](https://example.org/a) and [[Some Note]].");
        assertThat(t.own()).isEqualTo("See , https://example.org/x is text, `[[code]]`, "
                + "[site](https://example.org/a) and Some Note.");
        assertThat(t.references()).isEqualTo("OOMKilled\nx\nSome Note");
    }

    @Test
    void textWithoutLinksIsItsOwnText() {
        assertThat(LinkText.of("plain `code` text")).isEqualTo(new LinkText("plain `code` text", ""));
        assertThat(LinkText.of(null)).isEqualTo(new LinkText("", ""));
    }
}
