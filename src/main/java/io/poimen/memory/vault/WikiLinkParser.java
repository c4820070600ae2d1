package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Finds Obsidian wiki-links ({@code [[target#heading|alias]]}, {@code ![[embed]]}) outside code and comments.
 * Links come back unresolved, typed from their target text by {@link LinkTypes#inferFromTarget}.
 */
@Component
public class WikiLinkParser {
    private static final Pattern LINK = Pattern.compile("(!?)\\[\\[([^\\[\\]\\n]+)]]");

    public List<WikiLink> parse(String sourcePath, String markdown) {
        List<WikiLink> links = new ArrayList<>();
        if (markdown == null || markdown.isEmpty()) {
            return links;
        }
        Matcher m = LINK.matcher(MarkdownMask.mask(markdown));
        while (m.find()) {
            WikiLink link = toLink(sourcePath, m.group(2), !m.group(1).isEmpty());
            if (link != null) {
                links.add(link);
            }
        }
        return links;
    }

    /** Splits {@code target#anchor|alias}; {@code \|} (the table form) separates the alias too. */
    static WikiLink toLink(String sourcePath, String raw, boolean embed) {
        String inner = raw.replace("\\|", "|");
        int bar = inner.indexOf('|');
        String alias = bar < 0 ? null : blankToNull(inner.substring(bar + 1));
        String ref = (bar < 0 ? inner : inner.substring(0, bar)).strip();
        int hash = ref.indexOf('#');
        String written = (hash < 0 ? ref : ref.substring(0, hash)).strip();
        String anchor = hash < 0 ? null : blankToNull(ref.substring(hash + 1));
        String heading = anchor != null && !anchor.startsWith("^") ? anchor : null;
        String block = anchor != null && anchor.startsWith("^") ? blankToNull(anchor.substring(1)) : null;
        String target = normalizeTarget(written);
        if (target.isEmpty() && heading == null && block == null) {
            return null; // [[]], [[\]], [[#^]]: nothing to point at
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

    private static String blankToNull(String s) {
        String t = s.strip();
        return t.isEmpty() ? null : t;
    }
}
