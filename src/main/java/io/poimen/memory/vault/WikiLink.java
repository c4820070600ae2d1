package io.poimen.memory.vault;

/**
 * One Obsidian link found in a note.
 *
 * @param sourcePath   vault-relative path of the note holding the link
 * @param raw          the text between the brackets, as written
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

    public boolean resolved() {
        return resolvedPath != null;
    }

    public WikiLink withResolution(String path, LinkType linkType) {
        return new WikiLink(sourcePath, raw, target, heading, blockId, alias, embed, linkType, path);
    }
}
