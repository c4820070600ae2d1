package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WikiLinkParserTest {
    private static final String SRC = "projects/poimen/tools/kubectl.md";
    private final WikiLinkParser parser = new WikiLinkParser();

    private List<WikiLink> parse(String md) {
        return parser.parse(SRC, md);
    }

    private WikiLink only(String md) {
        List<WikiLink> links = parse(md);
        assertThat(links).hasSize(1);
        return links.get(0);
    }

    @Test
    void plainTargetIsUnresolvedWithSourceAndRaw() {
        WikiLink l = only("See [[debugging]] now.");
        assertThat(l.sourcePath()).isEqualTo(SRC);
        assertThat(l.raw()).isEqualTo("debugging");
        assertThat(l.target()).isEqualTo("debugging");
        assertThat(l.heading()).isNull();
        assertThat(l.blockId()).isNull();
        assertThat(l.alias()).isNull();
        assertThat(l.embed()).isFalse();
        assertThat(l.resolvedPath()).isNull();
        assertThat(l.type()).isEqualTo(LinkType.UNKNOWN);
    }

    @Test
    void aliasHeadingAndBlock() {
        WikiLink alias = only("[[pod-crashes|Pod crashes]]");
        assertThat(alias.target()).isEqualTo("pod-crashes");
        assertThat(alias.alias()).isEqualTo("Pod crashes");

        WikiLink heading = only("[[kubectl.md#Debugging Logs|logs]]");
        assertThat(heading.target()).isEqualTo("kubectl.md");
        assertThat(heading.heading()).isEqualTo("Debugging Logs");
        assertThat(heading.alias()).isEqualTo("logs");
        assertThat(heading.type()).isEqualTo(LinkType.MEMORY);

        WikiLink block = only("[[notes#^abc123]]");
        assertThat(block.target()).isEqualTo("notes");
        assertThat(block.blockId()).isEqualTo("abc123");
        assertThat(block.heading()).isNull();
    }

    @Test
    void selfHeadingLinkHasEmptyTarget() {
        WikiLink l = only("Jump to [[#Install]].");
        assertThat(l.target()).isEmpty();
        assertThat(l.heading()).isEqualTo("Install");
    }

    @Test
    void embedIsMarked() {
        List<WikiLink> links = parse("![[diagram.png]] and [[x]]");
        assertThat(links).extracting(WikiLink::embed).containsExactly(true, false);
        assertThat(links.get(0).target()).isEqualTo("diagram.png");
    }

    @Test
    void pathFormsAreKeptAsWritten() {
        assertThat(only("[[../tools/kubectl.md]]").target()).isEqualTo("../tools/kubectl.md");
        assertThat(only("[[projects/poimen/x]]").target()).isEqualTo("projects/poimen/x");
        assertThat(only("[[/projects/poimen/x]]").target()).isEqualTo("projects/poimen/x");
    }

    @Test
    void sharedPrefixAndSkillNamesAreTyped() {
        WikiLink shared = only("[[shared:skills/SKILL-k8s]]");
        assertThat(shared.target()).isEqualTo("shared/skills/SKILL-k8s");
        assertThat(shared.type()).isEqualTo(LinkType.SKILL);

        WikiLink concept = only("[[shared:concepts/design-patterns]]");
        assertThat(concept.target()).isEqualTo("shared/concepts/design-patterns");
        assertThat(concept.type()).isEqualTo(LinkType.SHARED_CONCEPT);

        assertThat(only("[[SKILL-ownership]]").type()).isEqualTo(LinkType.SKILL);
        assertThat(only("[[../../shared/skills/SKILL-ownership]]").type()).isEqualTo(LinkType.SKILL);
    }

    @Test
    void severalLinksPerLineInOrder() {
        assertThat(parse("[[a]], [[b|B]] and ![[c#h]] [[d]]")).extracting(WikiLink::target)
                .containsExactly("a", "b", "c", "d");
    }

    @Test
    void notesExampleFindsBothLinks() {
        List<WikiLink> links = parse("""
                ## Borrowing
                See [[lifetimes.md]] for more.
                Also check [[../../shared/skills/SKILL-ownership]]
                """);
        assertThat(links).hasSize(2);
        assertThat(links.get(0).target()).contains("lifetimes");
        assertThat(links.get(1).target()).contains("SKILL-ownership");
    }

    @Test
    void inlineCodeSpansHideLinks() {
        assertThat(parse("Use `[[not]]` or ``code with ` and [[not2]]`` but [[yes]]"))
                .extracting(WikiLink::target).containsExactly("yes");
    }

    @Test
    void unmatchedBacktickDoesNotHideLinks() {
        assertThat(parse("a ` lone tick [[yes]]")).extracting(WikiLink::target).containsExactly("yes");
    }

    @Test
    void fencedBlocksHideLinks() {
        String md = """
                [[before]]
                ```bash
                echo [[in-backticks]]
                ```
                ~~~~
                [[in-tildes]]
                ```
                still inside: a ``` line does not close a ~~~~ fence
                ~~~~
                  - item
                    ````
                    [[in-indented]]
                    ````
                [[after]]
                """;
        assertThat(parse(md)).extracting(WikiLink::target).containsExactly("before", "after");
    }

    @Test
    void unclosedFenceRunsToTheEnd() {
        assertThat(parse("[[a]]\n```\n[[b]]\n")).extracting(WikiLink::target).containsExactly("a");
    }

    @Test
    void commentsHideLinks() {
        String md = "[[a]] <!-- [[b]]\n[[c]] --> [[d]] %% [[e]] %% [[f]]\n%%\n[[g]]\n%%\n[[h]]";
        assertThat(parse(md)).extracting(WikiLink::target).containsExactly("a", "d", "f", "h");
    }

    @Test
    void escapedPipeInTableIsAlias() {
        WikiLink l = only("| tool | link |\n|---|---|\n| kubectl | [[tools/kubectl\\|kubectl docs]] |");
        assertThat(l.target()).isEqualTo("tools/kubectl");
        assertThat(l.alias()).isEqualTo("kubectl docs");
    }

    @Test
    void malformedAndEmptyAreNotLinks() {
        assertThat(parse("[[open without close and [[]] and [[ ]] and [[|x]]")).isEmpty();
        assertThat(parse("[[broken\nacross lines]]")).isEmpty();
        assertThat(parse("[[\\]] and [[#^]] and [[/]]")).as("nothing to point at").isEmpty();
        assertThat(parse("[[outer [[inner]]")).extracting(WikiLink::target).containsExactly("inner");
        assertThat(parse(null)).isEmpty();
    }

    @Test
    void codeSpanInsideALinkStaysInItsRawTextAndHeading() {
        WikiLink l = only("Run [[runbook#`deploy` step|deploy]] first.");
        assertThat(l.raw()).isEqualTo("runbook#`deploy` step|deploy");
        assertThat(l.target()).isEqualTo("runbook");
        assertThat(l.heading()).isEqualTo("`deploy` step");
        assertThat(l.alias()).isEqualTo("deploy");
    }

    @Test
    void fenceLookalikeInsideAPreBlockDoesNotHideTheRest() {
        String md = """
                <pre><code>```sh
                make release
                ```</code></pre>

                See [[release checklist]].

                ```sh
                echo [[not-a-link]]
                ```
                <PRE class="x">
                ~~~
                </pre>
                [[after pre]]
                """;
        assertThat(parse(md)).extracting(WikiLink::target).containsExactly("release checklist", "after pre");
    }

    @Test
    void markdownLinkToANoteIsPercentDecoded() {
        WikiLink l = only("Read [the runbook](Team%20Runbook.md#Roll%20back) before a release.");
        assertThat(l.raw()).isEqualTo("[the runbook](Team%20Runbook.md#Roll%20back)");
        assertThat(l.written()).isEqualTo("[the runbook](Team%20Runbook.md#Roll%20back)");
        assertThat(l.markdown()).isTrue();
        assertThat(l.target()).isEqualTo("Team Runbook.md");
        assertThat(l.heading()).isEqualTo("Roll back");
        assertThat(l.alias()).isEqualTo("the runbook");
        assertThat(l.embed()).isFalse();
        assertThat(l.type()).isEqualTo(LinkType.MEMORY);
        assertThat(parse("[x](notes/caf%C3%A9%20menu+extras.md)").get(0).target())
                .as("UTF-8 escapes decode, a plus stays a plus").isEqualTo("notes/café menu+extras.md");
    }

    @Test
    void markdownImageIsAnEmbedAndKeepsItsAnchor() {
        WikiLink l = only("![latency chart|300](charts/p99%20latency.png#wide)");
        assertThat(l.embed()).isTrue();
        assertThat(l.raw()).isEqualTo("[latency chart|300](charts/p99%20latency.png#wide)");
        assertThat(l.target()).isEqualTo("charts/p99 latency.png");
        assertThat(l.heading()).isEqualTo("wide");
    }

    @Test
    void markdownDestinationForms() {
        assertThat(only("[a](<Runbook v2.md> \"tooltip\")").target()).isEqualTo("Runbook v2.md");
        assertThat(only("[b](Runbook.md 'tooltip')").target()).isEqualTo("Runbook.md");
        assertThat(only("[c](Logs%20(old).md)").target()).isEqualTo("Logs (old).md");
        assertThat(only("[Report [draft] v2](reports/v2.md)").alias()).isEqualTo("Report [draft] v2");
        assertThat(only("[../up](../shared/intro.md)").target()).isEqualTo("../shared/intro.md");
        WikiLink self = only("[back to top](#Getting%20started)");
        assertThat(self.target()).isEmpty();
        assertThat(self.heading()).isEqualTo("Getting started");
        WikiLink block = only("[quote](Meeting.md#^k3y)");
        assertThat(block.blockId()).isEqualTo("k3y");
    }

    @Test
    void externalAndEmptyMarkdownLinksAreSkipped() {
        assertThat(parse("[a](https://example.org/a.md) [b](mailto:ops@example.org) [c](obsidian://open?vault=v)"
                + " [d](//cdn.example.org/x.png) [e](<https://example.org/x y>) [f]() [g](#) ![h](ftp://x/y.png)"))
                .isEmpty();
    }

    @Test
    void markdownLinksFollowTheSameCodeAndCommentRules() {
        String md = """
                `[code](in-span.md)` %% [hidden](in-comment.md) %%
                ```md
                [fenced](in-fence.md)
                ```
                \\[escaped](not-a-link.md) and [kept](kept.md)
                """;
        assertThat(parse(md)).extracting(WikiLink::target).containsExactly("kept.md");
    }

    @Test
    void wikiAndMarkdownLinksComeBackInDocumentOrder() {
        assertThat(parse("[[one]] then [two](two.md) then ![[three.png]] then ![four](four.png) [[five]](not-md)"))
                .extracting(WikiLink::target).containsExactly("one", "two.md", "three.png", "four.png", "five");
    }
}
