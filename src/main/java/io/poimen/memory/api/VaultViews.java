package io.poimen.memory.api;

import java.time.Instant;
import java.util.List;

/** JSON shapes of the read API (serialised snake_case). */
public final class VaultViews {
    private VaultViews() {
    }

    /** {@code GET /memory/vault}: the notes a project sees, sorted by path (the UI builds the tree). */
    public record Listing(String project, List<FileEntry> files) {
    }

    public record FileEntry(String path, String title, Instant updatedAt) {
    }

    /** {@code GET /memory/vault/file}: the note as written, its outgoing links and the notes linking to it. */
    /** @param version the version of {@code content} (its git blob id): send it back with an edit of the note */
    public record Note(String path, String title, String project, Instant updatedAt, String content, String version,
                       List<Link> links, List<String> backlinks) {
    }

    /** One wiki-link of a note; {@code resolvedPath} is null when the target did not resolve. */
    public record Link(String raw, String target, String resolvedPath, String type, String heading, String alias,
                       boolean embed) {
    }

    public record Projects(List<Project> projects) {
    }

    /** A project, its note count and its {@code index.md} when there is one. */
    public record Project(String name, int notes, String indexPath) {
    }

    public record Skills(List<Skill> skills) {
    }

    public record Skill(String name, String path, String title) {
    }

    /** {@code GET /memory/graph/reachable}: the project's query scope (own notes, then reachable shared notes). */
    public record Reachable(String project, List<String> notes) {
    }

    public record Backlinks(String path, List<String> backlinks) {
    }
}
