package io.poimen.memory.vault;

import java.util.List;

/**
 * A note after parsing. Links are unresolved here ({@code resolvedPath == null}); resolution needs the whole vault.
 */
public record ParsedNote(String path, String project, String title, String contentHash, FrontMatter frontMatter,
                         List<WikiLink> links, List<Chunk> chunks) {
}
