package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MarkdownChunkerTest {
    private static final String PATH = "projects/poimen/tools/kubectl.md";
    private final TokenCounter tokens = new TokenCounter();
    private final MarkdownChunker chunker = new MarkdownChunker(tokens, new ChunkMetadataExtractor());

    private List<Chunk> chunk(String body) {
        return chunker.chunk(PATH, "kubectl", body, List.of("k8s"));
    }

    @Test
    void breadcrumbsFollowHeadingHierarchy() {
        List<Chunk> chunks = chunk("""
                Intro text.
                # kubectl
                Top.
                ## Debugging
                Debug text.
                ### Logs
                Logs text.
                ### Events
                Events text.
                ## Install
                Install text.
                # Appendix
                ### Deep
                Deep text.
                """);
        assertThat(chunks).extracting(Chunk::heading)
                .containsExactly("kubectl", "kubectl", "Debugging", "Logs", "Events", "Install", "Deep");
        assertThat(chunks).extracting(Chunk::breadcrumbText).containsExactly(
                "kubectl", "kubectl", "kubectl > Debugging", "kubectl > Debugging > Logs",
                "kubectl > Debugging > Events", "kubectl > Install", "kubectl > Appendix > Deep");
        assertThat(chunks).extracting(Chunk::ordinal).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(chunks.get(3).id()).isEqualTo(Chunk.idOf(PATH, 3));
        assertThat(chunks.get(3).text()).isEqualTo("### Logs\nLogs text.");
        assertThat(chunks.get(3).project()).isEqualTo("poimen");
        assertThat(chunks.get(3).tags()).containsExactly("k8s");
        assertThat(chunks.get(3).tokens()).isEqualTo(tokens.count("### Logs\nLogs text."));
    }

    @Test
    void preambleIsChunkZeroHeadedByTitle() {
        List<Chunk> chunks = chunk("Some intro about pods.\n\n## Next\nMore.");
        assertThat(chunks.get(0).heading()).isEqualTo("kubectl");
        assertThat(chunks.get(0).breadcrumb()).containsExactly("kubectl");
        assertThat(chunks.get(0).text()).isEqualTo("Some intro about pods.");
        assertThat(chunks.get(0).metadata().firstSentence()).isEqualTo("Some intro about pods.");
    }

    @Test
    void headingInsideFenceIsNotABoundary() {
        List<Chunk> chunks = chunk("## Script\n```bash\n# not a heading\necho hi\n```\n~~~\n## nor this\n~~~\nafter\n");
        assertThat(chunks).hasSize(1);
        assertThat(chunks.get(0).text()).contains("# not a heading", "## nor this", "after");
    }

    @Test
    void emptySectionsAreDroppedButHeadingOnlyNoteKeepsChunks() {
        assertThat(chunk("# A\n\n## B\ntext\n## C\n   \n")).extracting(Chunk::heading).containsExactly("B");
        assertThat(chunk("# Only\n## Headings\n")).extracting(Chunk::heading).containsExactly("Only", "Headings");
        assertThat(chunk("  \n\n")).isEmpty();
    }

    @Test
    void longSectionSplitsAtParagraphsWithSameHeading() {
        String paragraph = IntStream.range(0, 60).mapToObj(i -> "word" + i).collect(Collectors.joining(" ")) + ".";
        String body = "## Long\n" + IntStream.range(0, 20).mapToObj(i -> "P" + i + " " + paragraph)
                .collect(Collectors.joining("\n\n"));
        List<Chunk> chunks = chunk(body);
        assertThat(chunks.size()).isGreaterThan(2);
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.heading()).isEqualTo("Long");
            assertThat(c.breadcrumb()).containsExactly("kubectl", "Long");
            assertThat(c.tokens()).isLessThanOrEqualTo(MarkdownChunker.DEFAULT_MAX_TOKENS);
        });
        // cut only between paragraphs: every paragraph survives whole, in order
        String rejoined = chunks.stream().map(Chunk::text).collect(Collectors.joining("\n\n"));
        assertThat(rejoined).isEqualTo(body);
        assertThat(chunks.get(1).text()).startsWith("P");
    }

    @Test
    void splitKeepsCodeIndentationAtPieceStarts() {
        MarkdownChunker small = new MarkdownChunker(tokens, new ChunkMetadataExtractor(), 16);
        String code = IntStream.range(0, 12).mapToObj(i -> "    indented_line_" + i + "();")
                .collect(Collectors.joining("\n"));
        List<Chunk> chunks = small.chunk("a.md", "a", "## Code\n```\n" + code + "\n```", List.of());
        assertThat(chunks.size()).isGreaterThan(2);
        assertThat(chunks.stream().skip(1).map(Chunk::text)).anySatisfy(t -> assertThat(t).startsWith("    indented"));
        assertThat(chunks.stream().map(Chunk::text).collect(Collectors.joining("\n"))).contains(code);
    }

    @Test
    void hugeSingleWordIsCutToFit() {
        MarkdownChunker small = new MarkdownChunker(tokens, new ChunkMetadataExtractor(), 32);
        String word = "x".repeat(2000);
        List<Chunk> chunks = small.chunk("a.md", "a", "## H\n" + word, List.of());
        assertThat(chunks).allSatisfy(c -> assertThat(c.tokens()).isLessThanOrEqualTo(32));
        assertThat(chunks.stream().skip(1).map(Chunk::text).collect(Collectors.joining())).isEqualTo(word);
    }

    @Test
    void inlineTagsOutsideCodeAndHeadings() {
        assertThat(InlineTags.collect("""
                # Heading #nottag
                Text #Ops and #k8s/debug, not#this, not #123 but #v2.
                `#incode` and <!-- #hidden -->
                ```
                #fenced
                ```
                - [[note#heading]] #Ops
                """)).containsExactly("ops", "k8s/debug", "v2");
    }
}
