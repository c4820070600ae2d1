package io.poimen.memory.grc;

import io.poimen.memory.api.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The body of {@code POST /memory/grc/draft}.
 *
 * @param documentPath vault-relative path of the note, e.g. {@code projects/poimen/tools/kubectl.md}
 * @param content      the whole new markdown text of the note
 * @param message      commit message and pull request title
 */
public record DraftRequest(String documentPath, String content, String message) {
    public static final int MAX_CONTENT_BYTES = 1024 * 1024;
    private static final Pattern WINDOWS_DRIVE = Pattern.compile("^[A-Za-z]:.*");

    /** {@code projects/<p>/<...>} or {@code shared/<...>}, as written (folders are case-sensitive). */
    static boolean inWritableFolder(String path) {
        String[] segments = path.split("/", -1);
        return segments.length >= 3 && segments[0].equals("projects")
                || segments.length >= 2 && segments[0].equals("shared");
    }

    /**
     * Rejects what must not reach git: paths outside the vault, non-notes, oversized or empty parts, and names git
     * refuses or a reviewer would misread ({@link NoteNames}).
     */
    public DraftRequest validated() {
        if (documentPath == null || documentPath.isBlank()) {
            throw ApiException.badRequest("document_path is required");
        }
        String path = documentPath.trim();
        if (path.startsWith("/") || path.contains("\\") || WINDOWS_DRIVE.matcher(path).matches()) {
            throw ApiException.badRequest("document_path must be relative to the vault: " + path);
        }
        for (String segment : path.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw ApiException.badRequest("document_path must stay inside the vault (no empty, '.' or '..' "
                        + "segments): " + path);
            }
        }
        if (!inWritableFolder(path)) {
            throw ApiException.badRequest("document_path must be a note inside a project (projects/<project>/...) "
                    + "or under shared/: " + path);
        }
        if (!path.endsWith(".md")) {
            throw ApiException.badRequest("document_path must be a markdown note ending in .md: " + path);
        }
        NoteNames.check(path);
        if (content == null) {
            throw ApiException.badRequest("content is required");
        }
        int bytes = content.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_CONTENT_BYTES) {
            throw new ApiException(413, "payload_too_large",
                    "content is " + bytes + " bytes; a draft may have at most " + MAX_CONTENT_BYTES);
        }
        if (message == null || message.isBlank()) {
            throw ApiException.badRequest("message is required");
        }
        return new DraftRequest(path, content, message.strip());
    }
}
