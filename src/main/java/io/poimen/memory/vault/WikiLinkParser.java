package io.poimen.memory.vault;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Finds Obsidian links outside code and comments: wiki-links ({@code [[target#heading|alias]]}, {@code ![[embed]]})
 * and internal markdown links ({@code [text](Some%20Note.md#Heading)}, {@code ![alt](image.png)}), which Obsidian
 * also treats as internal links. A markdown destination with a URL scheme ({@code https:}, {@code mailto:},
 * {@code obsidian:}) or starting with {@code //} is external and skipped; the rest is percent-decoded and becomes a
 * link like any other, its text the alias. Links come back unresolved, in document order, typed from their target
 * text by {@link LinkTypes#inferFromTarget}.
 */
@Component
public class WikiLinkParser {
    private static final Pattern LINK = Pattern.compile("(!?)\\[\\[([^\\[\\]\\n]+)]]");
    /**
     * {@code [text](destination "title")}: the text may hold one level of brackets, the destination is either
     * {@code <...>} or has no spaces (one level of balanced parentheses allowed), the title is optional.
     */
    private static final Pattern MARKDOWN_LINK = Pattern.compile(
            "(!?)\\[((?:[^\\[\\]\\n]|\\[[^\\[\\]\\n]*])*)]\\(\\s*(<[^<>\\n]*>|(?:[^\\s()<>]|\\([^\\s()]*\\))+)"
                    + "(?:\\s+(?:\"[^\"\\n]*\"|'[^'\\n]*'|\\([^()\\n]*\\)))?\\s*\\)");
    private static final Pattern URL_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    /**
     * The type {@code link} had as parsed, before it was resolved: what an unresolved link written the same way
     * shows (a link to a note the caller may not read must look like one).
     */
    public static LinkType typeAsWritten(WikiLink link) {
        List<WikiLink> again = new WikiLinkParser().parse(link.sourcePath(), link.written());
        return again.isEmpty() ? LinkType.UNKNOWN : again.get(0).type();
    }

    public List<WikiLink> parse(String sourcePath, String markdown) {
        return locate(sourcePath, markdown).stream().map(Located::link).toList();
    }

    /**
     * A link and where its reference is written: {@code [from, to)} is the text between {@code [[} and {@code ]]} of
     * a wiki-link, or the destination between the parentheses of a markdown link (with its angle brackets).
     */
    public record Located(int from, int to, WikiLink link) {
    }

    /** The links of {@link #parse}, each with the place of its reference in {@code markdown}. */
    public List<Located> locate(String sourcePath, String markdown) {
        return found(sourcePath, markdown).stream().map(Found::located).toList();
    }

    /** A link and the whole of it as written: {@code [start, end)} from its {@code !} or first bracket to its last. */
    public record Written(int start, int end, WikiLink link) {
    }

    /** The links of {@link #parse}, each with the place of the whole link in {@code markdown}. */
    public List<Written> written(String sourcePath, String markdown) {
        return found(sourcePath, markdown).stream()
                .map(f -> new Written(f.offset(), f.end(), f.located().link())).toList();
    }

    private List<Found> found(String sourcePath, String markdown) {
        if (markdown == null || markdown.isEmpty()) {
            return List.of();
        }
        // The mask keeps every offset, so what is found in the masked text is read back from the original:
        // a code span inside a link ([[Note#`code`]]) stays part of its raw text.
        String masked = MarkdownMask.mask(markdown);
        List<int[]> wikiSpans = new ArrayList<>();
        List<Found> found = new ArrayList<>();
        Matcher m = LINK.matcher(masked);
        while (m.find()) {
            wikiSpans.add(new int[] {m.start(), m.end()});
            WikiLink link = toLink(sourcePath, markdown.substring(m.start(2), m.end(2)), !m.group(1).isEmpty());
            if (link != null) {
                found.add(new Found(m.start(), m.end(), new Located(m.start(2), m.end(2), link)));
            }
        }
        Matcher md = MARKDOWN_LINK.matcher(masked);
        while (md.find()) {
            int open = md.start(1) + md.group(1).length();
            if (insideAny(wikiSpans, md.start()) || (open > 0 && markdown.charAt(open - 1) == '\\')) {
                continue;
            }
            WikiLink link = toMarkdownLink(sourcePath, markdown.substring(open, md.end()),
                    markdown.substring(md.start(2), md.end(2)), markdown.substring(md.start(3), md.end(3)),
                    !md.group(1).isEmpty());
            if (link != null) {
                found.add(new Found(md.start(), md.end(), new Located(md.start(3), md.end(3), link)));
            }
        }
        found.sort(Comparator.comparingInt(Found::offset));
        return found;
    }

    /**
     * The target {@code [[name]]} points at, as {@link LinkResolver} reads it: no heading, block or alias,
     * {@code shared:} spelled out; empty when the name has none ({@code #Heading}).
     */
    public static String target(String name) {
        WikiLink link = toLink("", name, false);
        return link == null ? "" : link.target();
    }

    /** Splits {@code target#anchor|alias}; {@code \|} (the table form) separates the alias too. */
    static WikiLink toLink(String sourcePath, String raw, boolean embed) {
        String inner = raw.replace("\\|", "|");
        int bar = inner.indexOf('|');
        String alias = bar < 0 ? null : blankToNull(inner.substring(bar + 1));
        String ref = (bar < 0 ? inner : inner.substring(0, bar)).strip();
        return build(sourcePath, raw, ref, alias, embed);
    }

    /**
     * A markdown link {@code [text](destination)}; null when the destination is external or empty.
     *
     * @param raw the link as written, without the leading {@code !} of an image
     */
    static WikiLink toMarkdownLink(String sourcePath, String raw, String text, String destination, boolean embed) {
        String dest = destination.strip();
        if (dest.startsWith("<") && dest.endsWith(">")) {
            dest = dest.substring(1, dest.length() - 1).strip();
        }
        if (dest.isEmpty() || dest.startsWith("//") || URL_SCHEME.matcher(dest).find()) {
            return null;
        }
        return build(sourcePath, raw, percentDecode(dest), blankToNull(text), embed);
    }

    private static WikiLink build(String sourcePath, String raw, String ref, String alias, boolean embed) {
        int hash = ref.indexOf('#');
        String written = (hash < 0 ? ref : ref.substring(0, hash)).strip();
        String anchor = hash < 0 ? null : blankToNull(ref.substring(hash + 1));
        String heading = anchor != null && !anchor.startsWith("^") ? anchor : null;
        String block = anchor != null && anchor.startsWith("^") ? blankToNull(anchor.substring(1)) : null;
        String target = normalizeTarget(written);
        if (target.isEmpty() && heading == null && block == null) {
            return null; // [[]], [[\]], [[#^]], [x](#): nothing to point at
        }
        return new WikiLink(sourcePath, raw, target, heading, block, alias, embed,
                LinkTypes.inferFromTarget(written), null);
    }

    /** {@code shared:x} means {@code shared/x}; a leading {@code /} marks a vault-absolute path and is dropped. */
    static String normalizeTarget(String written) {
        String t = written.replace('\\', '/');
        if (t.startsWith(LinkTypes.SHARED_PREFIX)) {
            t = VaultPaths.SHARED + t.substring(LinkTypes.SHARED_PREFIX.length()).replaceFirst("^/+", "");
        }
        return t.replaceFirst("^/+", "");
    }

    /** Decodes {@code %XX} sequences as UTF-8, the way a browser's {@code decodeURI} does; {@code +} stays a plus. */
    public static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int i = 0;
        while (i < s.length()) {
            if (s.charAt(i) == '%' && i + 2 < s.length() && hex(s.charAt(i + 1)) >= 0 && hex(s.charAt(i + 2)) >= 0) {
                bytes.write(hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2)));
                i += 3;
                continue;
            }
            flush(bytes, out);
            out.append(s.charAt(i));
            i++;
        }
        flush(bytes, out);
        return out.toString();
    }

    private static void flush(ByteArrayOutputStream bytes, StringBuilder out) {
        if (bytes.size() > 0) {
            out.append(new String(bytes.toByteArray(), StandardCharsets.UTF_8));
            bytes.reset();
        }
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }

    private static boolean insideAny(List<int[]> spans, int offset) {
        for (int[] span : spans) {
            if (offset >= span[0] && offset < span[1]) {
                return true;
            }
        }
        return false;
    }

    private static String blankToNull(String s) {
        String t = s.strip();
        return t.isEmpty() ? null : t;
    }

    private record Found(int offset, int end, Located located) {
    }
}
