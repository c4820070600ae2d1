package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Cuts a note body at ATX headings (not inside fenced code or comments). Each chunk is one heading and its text
 * up to the next heading of any level; text before the first heading becomes a chunk headed by the note title.
 * The breadcrumb is the title followed by the enclosing headings (an H1 equal to the title is not repeated).
 * Sections with no text besides their heading are dropped unless that leaves no chunk at all; sections over
 * {@code maxTokens} are split at paragraph boundaries (then lines, then words) into chunks sharing the heading.
 */
@Component
public class MarkdownChunker {
    public static final int DEFAULT_MAX_TOKENS = 512;

    private final ChunkMetadataExtractor metadata;
    private final SectionSplitter splitter;

    @Autowired
    public MarkdownChunker(TokenCounter tokens, ChunkMetadataExtractor metadata) {
        this(tokens, metadata, DEFAULT_MAX_TOKENS);
    }

    public MarkdownChunker(TokenCounter tokens, ChunkMetadataExtractor metadata, int maxTokens) {
        this.metadata = metadata;
        this.splitter = new SectionSplitter(tokens, maxTokens);
    }

    /** A heading and the lines under it (the heading line included), with each line's fenced-code flag. */
    record Section(String heading, List<String> breadcrumb, List<String> lines, List<Boolean> fenced,
                   boolean hasHeadingLine) {
        boolean hasBody() {
            return lines.stream().skip(hasHeadingLine ? 1 : 0).anyMatch(l -> !l.isBlank());
        }
    }

    public List<Chunk> chunk(String path, String title, String body, List<String> tags) {
        List<Section> sections = sections(title, body == null ? "" : body);
        List<Section> kept = sections.stream().filter(Section::hasBody).toList();
        if (kept.isEmpty()) {
            kept = sections.stream().filter(Section::hasHeadingLine).toList();
        }
        List<Chunk> chunks = new ArrayList<>();
        String project = VaultPaths.projectOf(path);
        for (Section s : kept) {
            for (SectionSplitter.Piece piece : splitter.split(s.lines(), s.fenced())) {
                String text = piece.text();
                chunks.add(new Chunk(Chunk.idOf(path, chunks.size()), path, project, chunks.size(), s.heading(),
                        s.breadcrumb(), text, piece.tokens(), metadata.extract(s.heading(), text, path),
                        List.copyOf(tags)));
            }
        }
        return chunks;
    }

    static List<Section> sections(String title, String body) {
        String[] lines = body.split("\n", -1);
        String[] masked = MarkdownMask.mask(body).split("\n", -1);
        boolean[] fenced = MarkdownMask.fencedLines(lines);
        String[] open = new String[7];
        List<Section> out = new ArrayList<>();
        Section current = new Section(title, List.of(title), new ArrayList<>(), new ArrayList<>(), false);
        for (int i = 0; i < lines.length; i++) {
            Headings.Heading h = Headings.parse(masked[i]) == null ? null : Headings.parse(lines[i]);
            if (h != null) {
                out.add(current);
                open[h.level()] = h.text();
                for (int l = h.level() + 1; l < open.length; l++) {
                    open[l] = null;
                }
                current = new Section(h.text(), breadcrumb(title, open, h.level()), new ArrayList<>(),
                        new ArrayList<>(), true);
            }
            current.lines().add(MarkdownMask.stripCr(lines[i]));
            current.fenced().add(fenced[i]);
        }
        out.add(current);
        return out;
    }

    private static List<String> breadcrumb(String title, String[] open, int level) {
        List<String> crumbs = new ArrayList<>(List.of(title));
        for (int l = 1; l <= level; l++) {
            boolean repeatsTitle = crumbs.size() == 1 && open[l] != null && open[l].equalsIgnoreCase(title);
            if (open[l] != null && !open[l].isEmpty() && !repeatsTitle) {
                crumbs.add(open[l]);
            }
        }
        return List.copyOf(crumbs);
    }
}
