package io.poimen.memory.vault;

import io.poimen.memory.config.PoimenProperties;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Turns the bytes of one markdown file into a {@link ParsedNote}: content hash, project, front matter, title,
 * unresolved links and chunks. Files that are too large, binary (a NUL byte) or not UTF-8 are rejected whole;
 * front matter that does not parse is kept in {@code frontMatter.error} and the body is parsed anyway.
 */
@Component
public class NoteParser {
    public static final long DEFAULT_MAX_BYTES = 5L * 1024 * 1024;

    private final FrontMatterParser frontMatter;
    private final WikiLinkParser links;
    private final MarkdownChunker chunker;
    private final long maxBytes;

    @Autowired
    public NoteParser(FrontMatterParser frontMatter, WikiLinkParser links, MarkdownChunker chunker,
                      PoimenProperties properties) {
        this(frontMatter, links, chunker, properties.vault().maxFileBytes());
    }

    public NoteParser(FrontMatterParser frontMatter, WikiLinkParser links, MarkdownChunker chunker, long maxBytes) {
        this.frontMatter = frontMatter;
        this.links = links;
        this.chunker = chunker;
        this.maxBytes = maxBytes;
    }

    /** A parser with default parts and the default 5 MB limit, for code outside Spring. */
    public static NoteParser withDefaults() {
        return new NoteParser(new FrontMatterParser(), new WikiLinkParser(),
                new MarkdownChunker(new TokenCounter(), new ChunkMetadataExtractor()), DEFAULT_MAX_BYTES);
    }

    public ParsedNote parse(String path, byte[] bytes) throws NoteRejectedException {
        String markdown = decode(path, bytes).replace("\r\n", "\n").replace('\r', '\n');
        FrontMatter fm = frontMatter.parse(markdown);
        String body = frontMatter.body(markdown);
        String title = titleOf(path, fm, body);
        Set<String> tags = new LinkedHashSet<>(fm.tags());
        tags.addAll(InlineTags.collect(body));
        return new ParsedNote(path, VaultPaths.projectOf(path), title, contentHash(bytes), fm,
                links.parse(path, markdown), chunker.chunk(path, title, body, List.copyOf(tags)));
    }

    private String decode(String path, byte[] bytes) throws NoteRejectedException {
        if (bytes.length > maxBytes) {
            throw new NoteRejectedException(path, "too large: " + bytes.length + " bytes, the limit is " + maxBytes);
        }
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                throw new NoteRejectedException(path, "binary content: NUL byte at offset " + i);
            }
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new NoteRejectedException(path, "not valid UTF-8 at byte offset " + in.position());
        }
        String text = out.flip().toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** Front matter title, else the first H1 outside code, else the file name without .md. */
    static String titleOf(String path, FrontMatter fm, String body) {
        if (fm.title() != null && !fm.title().isBlank()) {
            return fm.title();
        }
        String[] lines = body.split("\n", -1);
        String[] masked = MarkdownMask.mask(body).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Headings.Heading h = Headings.parse(masked[i]) == null ? null : Headings.parse(lines[i]);
            if (h != null && h.level() == 1 && !h.text().isBlank()) {
                return h.text();
            }
        }
        String name = LinkResolver.fileName(path);
        return name.toLowerCase().endsWith(".md") ? name.substring(0, name.length() - 3) : name;
    }

    /** The content hash stored per note: SHA-256 hex of the raw bytes. */
    public static String contentHash(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }
}
