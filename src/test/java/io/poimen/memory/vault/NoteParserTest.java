package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NoteParserTest {
    private final NoteParser parser = NoteParser.withDefaults();

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void parsesAWholeNote() throws Exception {
        String md = """
                ---
                tags: [k8s]
                aliases: kube
                ---
                # kubectl
                Debug pods with #Ops tools, see [[pod-crashes]].
                ```
                [[not-a-link]] #notatag
                ```
                ## Logs
                Use `kubectl logs` and [[shared:skills/SKILL-k8s|the skill]].
                """;
        ParsedNote note = parser.parse("projects/poimen/tools/kubectl.md", utf8(md));
        assertThat(note.path()).isEqualTo("projects/poimen/tools/kubectl.md");
        assertThat(note.project()).isEqualTo("poimen");
        assertThat(note.title()).isEqualTo("kubectl");
        assertThat(note.contentHash()).hasSize(64).isEqualTo(NoteParser.contentHash(utf8(md)));
        assertThat(note.frontMatter().aliases()).containsExactly("kube");
        assertThat(note.links()).extracting(WikiLink::target)
                .containsExactly("pod-crashes", "shared/skills/SKILL-k8s");
        assertThat(note.chunks()).extracting(Chunk::heading).containsExactly("kubectl", "Logs");
        assertThat(note.chunks()).allSatisfy(c -> assertThat(c.tags()).containsExactly("k8s", "ops"));
        assertThat(note.chunks().get(1).breadcrumb()).containsExactly("kubectl", "Logs");
    }

    @Test
    void titleFallsBackFromFrontMatterToH1ToFileName() throws Exception {
        assertThat(parser.parse("a/b.md", utf8("---\ntitle: T\n---\n# H\nx")).title()).isEqualTo("T");
        assertThat(parser.parse("a/b.md", utf8("```\n# code\n```\n## h2\n# Real `one`\nx")).title())
                .isEqualTo("Real `one`");
        assertThat(parser.parse("a/My Note.md", utf8("no heading")).title()).isEqualTo("My Note");
        assertThat(parser.parse("shared/x.md", utf8("text")).project()).isNull();
    }

    @Test
    void crlfAndBomAreNormalised() throws Exception {
        ParsedNote note = parser.parse("n.md", utf8("\uFEFF---\r\ntitle: Win\r\n---\r\n## A\r\ntext [[x]]\r\n"));
        assertThat(note.title()).isEqualTo("Win");
        assertThat(note.chunks()).singleElement().satisfies(c -> assertThat(c.text()).isEqualTo("## A\ntext [[x]]"));
    }

    @Test
    void invalidUtf8IsRejectedWithOffset() {
        byte[] bytes = {'o', 'k', ' ', (byte) 0xC3, (byte) 0x28, 'x'};
        assertThatThrownBy(() -> parser.parse("bad.md", bytes)).isInstanceOf(NoteRejectedException.class)
                .satisfies(e -> {
                    NoteRejectedException r = (NoteRejectedException) e;
                    assertThat(r.path()).isEqualTo("bad.md");
                    assertThat(r.reason()).isEqualTo("not valid UTF-8 at byte offset 3");
                });
        byte[] truncated = {'a', (byte) 0xE2, (byte) 0x82};
        assertThatThrownBy(() -> parser.parse("t.md", truncated)).hasMessageContaining("not valid UTF-8");
    }

    @Test
    void nulByteIsRejectedAsBinary() {
        assertThatThrownBy(() -> parser.parse("img.md", new byte[] {'P', 'N', 'G', 0, 1}))
                .isInstanceOf(NoteRejectedException.class)
                .hasMessage("img.md: binary content: NUL byte at offset 3");
    }

    @Test
    void tooLargeIsRejected() throws Exception {
        NoteParser small = new NoteParser(new FrontMatterParser(), new WikiLinkParser(),
                new MarkdownChunker(new TokenCounter(), new ChunkMetadataExtractor()), 10);
        assertThat(small.parse("ok.md", utf8("0123456789")).chunks()).hasSize(1);
        assertThatThrownBy(() -> small.parse("big.md", utf8("0123456789A")))
                .isInstanceOf(NoteRejectedException.class)
                .hasMessage("big.md: too large: 11 bytes, the limit is 10");
    }

    @Test
    void brokenFrontMatterIsKeptAndBodyParsed() throws Exception {
        ParsedNote note = parser.parse("projects/p/n.md", utf8("---\ntitle: [oops\n---\n# Body\nSee [[x]].\n"));
        assertThat(note.frontMatter().error()).contains("not valid YAML");
        assertThat(note.title()).isEqualTo("Body");
        assertThat(note.links()).extracting(WikiLink::target).containsExactly("x");
        assertThat(note.chunks()).hasSize(1);
    }
}
