package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.List;

/**
 * A chunk's text split into what it says and what it points to, for indexing. A link's reference (the linked note's
 * path, the heading or block it points at) names another place: its words belong to that place, not to the chunk
 * that links there. So the {@code own} text is the text with every internal link replaced by what stands for it in
 * the sentence (its alias or link text when written, else the linked file's name without folders or {@code .md}, and
 * nothing for a link into the same note), and the {@code references} are the links' targets, headings and block ids.
 * Every branch indexes the own text as the chunk's text; BM25 also indexes the references as a name field, as it does
 * the path and the breadcrumb. External links and links in code stay text as written.
 *
 * @param own        the text with each internal link replaced by its stand-in
 * @param references the links' targets, headings and block ids, one link per line
 */
public record LinkText(String own, String references) {
    private static final WikiLinkParser PARSER = new WikiLinkParser();

    public static LinkText of(String markdown) {
        if (markdown == null || markdown.isEmpty()) {
            return new LinkText(markdown == null ? "" : markdown, "");
        }
        List<WikiLinkParser.Written> links = PARSER.written("", markdown);
        if (links.isEmpty()) {
            return new LinkText(markdown, "");
        }
        StringBuilder own = new StringBuilder(markdown.length());
        List<String> references = new ArrayList<>();
        int at = 0;
        for (WikiLinkParser.Written w : links) {
            own.append(markdown, at, w.start()).append(standIn(w.link()));
            at = w.end();
            references.add(reference(w.link()));
        }
        own.append(markdown, at, markdown.length());
        return new LinkText(own.toString(), String.join("\n", references));
    }

    /** The words a link stands for in its sentence: its alias, else the linked file's name. */
    static String standIn(WikiLink link) {
        if (link.alias() != null) {
            return link.alias();
        }
        String target = link.target();
        String name = target.substring(target.lastIndexOf('/') + 1);
        return name.toLowerCase(java.util.Locale.ROOT).endsWith(".md") ? name.substring(0, name.length() - 3) : name;
    }

    private static String reference(WikiLink link) {
        StringBuilder out = new StringBuilder(link.target());
        if (link.heading() != null) {
            out.append(' ').append(link.heading());
        }
        if (link.blockId() != null) {
            out.append(' ').append(link.blockId());
        }
        return out.toString().strip();
    }
}
