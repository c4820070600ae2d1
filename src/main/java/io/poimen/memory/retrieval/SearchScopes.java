package io.poimen.memory.retrieval;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.vault.VaultPaths;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The search scope of a query, built once per (graph version, project, access groups the caller may not read)
 * and kept in a bounded cache, so a restricted caller pays the walk over the project's notes once per graph change.
 *
 * <p>The caller's read predicate is still asked on every query, once per access group of the project's scope
 * (read access is decided per folder), so the key is the caller's current denials: an edited {@code _access.yaml}
 * or a changed role model gives another key on the next query, and a cached scope is never one the current
 * policies would not build. Entries of an older graph version are dropped as soon as a newer version is seen.
 */
public class SearchScopes {
    static final int MAX_ENTRIES = 256;
    /** Bound on the paths all cached scopes hold together (a scope of 100,000 paths is a few MB). */
    static final long MAX_PATHS = 1_000_000;

    private record Key(long graphVersion, String project, Set<String> deniedGroups) {
    }

    private final GraphService graph;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    /** Least recently used first. */
    private final Map<Key, SearchScope> cache = new LinkedHashMap<>(16, 0.75f, true);
    private long cachedPaths;
    private long cachedVersion = -1;

    public SearchScopes(GraphService graph) {
        this.graph = graph;
    }

    /**
     * The notes a query in {@code project} may search: the project's notes and the shared notes reachable from
     * them, walking only through notes {@code readable} accepts (null: every note), with the tag filters.
     */
    public SearchScope scope(String project, Predicate<String> readable, List<String> tags) {
        GraphService.Versioned v = graph.versioned();
        LinkGraph g = v.graph();
        Set<String> denied = readable == null ? Set.of() : deniedGroups(g, project, readable);
        Key key = new Key(v.version(), project, denied);
        SearchScope scope = cached(key);
        if (scope == null) {
            misses.incrementAndGet();
            Set<String> paths = denied.isEmpty() ? g.projectScope(project)
                    : g.projectScope(project, p -> !denied.contains(VaultPaths.accessGroupOf(p)));
            scope = SearchScope.ofProject(project, paths, g.projectNotes(project), List.of());
            store(key, scope);
        } else {
            hits.incrementAndGet();
        }
        return tags.isEmpty() ? scope : new SearchScope(scope.paths(), tags, scope.byProject());
    }

    private static Set<String> deniedGroups(LinkGraph g, String project, Predicate<String> readable) {
        Set<String> denied = new TreeSet<>();
        g.scopeGroups(project).forEach((folder, note) -> {
            if (!readable.test(note)) {
                denied.add(folder);
            }
        });
        return Set.copyOf(denied);
    }

    private synchronized SearchScope cached(Key key) {
        if (key.graphVersion() != cachedVersion) {
            if (key.graphVersion() < cachedVersion) {
                return null; // a query still holding an older snapshot: build, do not cache
            }
            cache.clear();
            cachedPaths = 0;
            cachedVersion = key.graphVersion();
        }
        return cache.get(key);
    }

    private synchronized void store(Key key, SearchScope scope) {
        if (key.graphVersion() != cachedVersion) {
            return;
        }
        SearchScope old = cache.put(key, scope);
        cachedPaths += size(scope) - (old == null ? 0 : size(old));
        Iterator<Map.Entry<Key, SearchScope>> eldest = cache.entrySet().iterator();
        while ((cache.size() > MAX_ENTRIES || cachedPaths > MAX_PATHS) && cache.size() > 1) {
            cachedPaths -= size(eldest.next().getValue());
            eldest.remove();
        }
    }

    private static long size(SearchScope scope) {
        return scope.paths().size();
    }

    /** Scopes served from the cache and scopes built, since start. */
    public record Stats(long hits, long misses, int entries) {
    }

    public synchronized Stats stats() {
        return new Stats(hits.get(), misses.get(), cache.size());
    }
}
