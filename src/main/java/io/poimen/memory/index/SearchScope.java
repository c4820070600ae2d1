package io.poimen.memory.index;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Where a branch may look: the vault paths in the caller's wiki-graph scope, plus optional tag filters.
 * {@code paths == null} means the whole vault (used by benchmarks and admin tools only).
 *
 * <p>{@code byProject}, when set, describes the same paths compactly for a store that keeps each chunk's project:
 * a large project's scope sent as a list of every path makes each search cost linear in the vault (a 100,000-path
 * array or {@code terms} filter per query).
 */
public record SearchScope(Set<String> paths, List<String> tags, ProjectFilter byProject) {
    /** Below this many paths the path list itself is the cheaper filter (an index lookup per path). */
    public static final int PROJECT_FILTER_MIN_PATHS = 2_000;

    public SearchScope(Set<String> paths, List<String> tags) {
        this(paths, tags, null);
    }

    /**
     * The paths as "chunks of {@code project} except {@code excluded}, plus {@code extra}": {@code excluded} are the
     * project's notes not in scope (denied to the caller or unreachable), {@code extra} the scope's notes outside
     * the project (shared notes). A chunk such a filter admits whose note the scope does not know (ingested after
     * the link graph was built) is dropped by {@link #containsChunk} before it becomes a candidate, and the store
     * repeats its search (a few rounds) to still fill k.
     *
     * <p>Why that case cannot be removed at the source: pgvector and OpenSearch are shared by every replica; the
     * writer stores a note's chunks before it publishes its graph (relinking is the last ingest step, links resolve
     * against every stored note), and a follower's graph follows only after the writer's commit is announced. So
     * every replica sees, for a while, chunks of notes its graph does not know, possibly in a folder the caller may
     * not read, which "the project minus its known excluded notes" would admit. Publishing the graph first does
     * not help the followers, and checking by version would need the graph version on every chunk of both stores.
     */
    public record ProjectFilter(String project, Set<String> excluded, Set<String> extra) {
        public ProjectFilter {
            Objects.requireNonNull(project, "project");
            excluded = Set.copyOf(excluded);
            extra = Set.copyOf(extra);
        }
    }

    public static SearchScope all() {
        return new SearchScope(null, List.of());
    }

    public static SearchScope of(Set<String> paths) {
        return new SearchScope(paths, List.of());
    }

    /**
     * The scope {@code paths} of {@code project}, whose own notes (in the link graph) are {@code projectNotes}; with
     * a {@link ProjectFilter} when there are at least {@link #PROJECT_FILTER_MIN_PATHS} paths.
     */
    public static SearchScope ofProject(String project, Set<String> paths, Collection<String> projectNotes,
                                        List<String> tags) {
        if (paths.size() < PROJECT_FILTER_MIN_PATHS) {
            return new SearchScope(paths, tags);
        }
        return new SearchScope(paths, tags, filter(project, paths, projectNotes));
    }

    private static ProjectFilter filter(String project, Set<String> paths, Collection<String> projectNotes) {
        Set<String> own = projectNotes instanceof Set<String> s ? s : new LinkedHashSet<>(projectNotes);
        Set<String> excluded = new LinkedHashSet<>();
        for (String note : own) {
            if (!paths.contains(note)) {
                excluded.add(note);
            }
        }
        Set<String> extra = new LinkedHashSet<>();
        for (String path : paths) {
            if (!own.contains(path)) {
                extra.add(path);
            }
        }
        return new ProjectFilter(project, excluded, extra);
    }

    public boolean contains(String path) {
        return paths == null || paths.contains(path);
    }

    /** Whether the chunk {@code chunkId} ({@code path#ordinal}) belongs to a note in scope. */
    public boolean containsChunk(String chunkId) {
        return contains(pathOfChunk(chunkId));
    }

    /** The note path of a chunk id ({@code path#ordinal}). */
    public static String pathOfChunk(String chunkId) {
        int hash = chunkId.lastIndexOf('#');
        return hash < 0 ? chunkId : chunkId.substring(0, hash);
    }
}
