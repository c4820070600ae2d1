package io.poimen.memory.vault;

import java.util.List;

/**
 * A heading-bounded piece of a note: the unit that is indexed and returned.
 *
 * @param id         stable id {@code <path>#<ordinal>}
 * @param path       vault-relative path of the note
 * @param project    project name for notes under {@code projects/<p>/}, null for shared notes
 * @param ordinal    position of the chunk in its note, from 0
 * @param heading    heading text of the chunk (without #), or the note title for text before the first heading
 * @param breadcrumb title and heading path, e.g. [kubectl, Debugging, Logs]
 * @param text       chunk text as written (markdown)
 * @param tokens     token count (cl100k_base)
 * @param metadata   heading, first sentence, key terms, category
 * @param tags       the note's tags (front matter and inline #tags), lower case, without #
 */
public record Chunk(String id, String path, String project, int ordinal, String heading, List<String> breadcrumb,
                    String text, int tokens, ChunkMetadata metadata,
                    List<String> tags) {

    public static String idOf(String path, int ordinal) {
        return path + "#" + ordinal;
    }

    public String breadcrumbText() {
        return String.join(" > ", breadcrumb);
    }
}
