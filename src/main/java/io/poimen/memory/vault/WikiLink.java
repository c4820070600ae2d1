package io.poimen.memory.vault;

/**
 * One Obsidian link found in a note: a wiki-link or an internal markdown link.
 *
 * @param sourcePath   vault-relative path of the note holding the link
 * @param raw          the text between the brackets as written ({@code target#h|alias} for {@code [[target#h|alias]]});
 *                     for a markdown link the whole link as written ({@code [text](Some%20Note.md)}, no {@code !})
 * @param target       the target part (no heading, block or alias); empty for {@code [[#Heading]]}
 * @param heading      heading anchor or null
 * @param blockId      block id (without ^) or null
 * @param alias        display alias or null
 * @param embed        true for {@code ![[...]]}
 * @param type         inferred link type
 * @param resolvedPath vault-relative path of the target, or null when unresolved
 */
public record WikiLink(String sourcePath, String raw, String target, String heading, String blockId,
                       String alias, boolean embed, LinkType type, String resolvedPath) {

    /** True for a markdown link: a wiki-link's raw text never starts with a bracket. */
    public boolean markdown() {
        return raw != null && raw.startsWith("[");
    }

    /** The link as a reader would search for it: {@code [[raw]]} for a wiki-link, the raw text for a markdown one. */
    public String written() {
        return markdown() ? raw : "[[" + raw + "]]";
    }

    public boolean resolved() {
        return resolvedPath != null;
    }

    public WikiLink withResolution(String path, LinkType linkType) {
        return new WikiLink(sourcePath, raw, target, heading, blockId, alias, embed, linkType, path);
    }
}
