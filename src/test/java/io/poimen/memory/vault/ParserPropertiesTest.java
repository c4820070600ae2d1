package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class ParserPropertiesTest {
    private final WikiLinkParser parser = new WikiLinkParser();

    @Provide
    Arbitrary<String> markdownish() {
        return Arbitraries.strings().withChars("[]!#|^\\`~%<>-: \nab/.").ofMaxLength(200);
    }

    @Property(tries = 2000)
    void neverThrowsAndLinksHaveATargetOrAnchor(@ForAll("markdownish") String text) {
        List<WikiLink> links = parser.parse("a.md", text);
        assertThat(links).allSatisfy(l -> assertThat(!l.target().isEmpty() || l.heading() != null
                || l.blockId() != null).isTrue());
        new MarkdownChunker(new TokenCounter(), new ChunkMetadataExtractor()).chunk("a.md", "a", text, List.of());
        new FrontMatterParser().parse(text);
    }

    @Property(tries = 500)
    void noteParserRejectsOrParsesButNeverFails(@ForAll byte[] bytes) {
        try {
            ParsedNote note = NoteParser.withDefaults().parse("r.md", bytes);
            assertThat(note.contentHash()).hasSize(64);
        } catch (NoteRejectedException e) {
            assertThat(e.reason()).isNotBlank();
        }
    }

    @Property(tries = 500)
    void noLinkFromInsideAFence(@ForAll("markdownish") String inside, @ForAll("markdownish") String before) {
        String fenceSafe = inside.replace("`", "").replace("~", "");
        String cleanBefore = before.replace("`", "").replace("~", "").replace("<!--", "").replace("%%", "");
        String md = cleanBefore + "\n```\n[[in-fence]] " + fenceSafe + "\n```\n[[after-fence]]";
        List<String> targets = parser.parse("a.md", md).stream().map(WikiLink::target).toList();
        assertThat(targets).doesNotContain("in-fence").contains("after-fence");
    }
}
