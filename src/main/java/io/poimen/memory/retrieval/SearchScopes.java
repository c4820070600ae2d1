package io.poimen.memory.retrieval;

import com.github.benmanes.caffeine.cache.Cache;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.BoundedCaches;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.vault.VaultPaths;
import java.util.List;
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
 *
 * <p>Meters: {@code cache.gets{cache="search-scopes",result=hit|miss}}, {@code cache.size},
 * {@code cache.evictions} (micrometer's Caffeine binder) and {@code poimen.search.scopes.cache.hit.ratio}.
 */
public class SearchScopes implements MeterBinder {
    public static final String NAME = "search-scopes";
    static final int MAX_ENTRIES = 256;
    /** Bound on the paths all cached scopes hold together (a scope of 100,000 paths is a few MB). */
    static final long MAX_PATHS = 1_000_000;

    private record Key(long graphVersion, String project, Set<String> deniedGroups) {
    }

    private final GraphService graph;
    private final Cache<Key, SearchScope> cache;
    private final AtomicLong newestVersion = new AtomicLong(-1);

    public SearchScopes(GraphService graph) {
        this(graph, MAX_ENTRIES, MAX_PATHS);
    }

    SearchScopes(GraphService graph, int maxEntries, long maxPaths) {
        this.graph = graph;
        this.cache = BoundedCaches.of(maxEntries, maxPaths, s -> s.paths().size());
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
        if (key.graphVersion() > newestVersion.getAndAccumulate(key.graphVersion(), Math::max)) {
            cache.asMap().keySet().removeIf(k -> k.graphVersion() < key.graphVersion());
        }
        SearchScope scope = cache.get(key, k -> build(g, k));
        if (key.graphVersion() < newestVersion.get()) {
            cache.invalidate(key); // a query still holding an older snapshot: built, not kept
        }
        return tags.isEmpty() ? scope : new SearchScope(scope.paths(), tags, scope.byProject());
    }

    private static SearchScope build(LinkGraph g, Key key) {
        Set<String> denied = key.deniedGroups();
        Set<String> paths = denied.isEmpty() ? g.projectScope(key.project())
                : g.projectScope(key.project(), p -> !denied.contains(VaultPaths.accessGroupOf(p)));
        return SearchScope.ofProject(key.project(), paths, g.projectNotes(key.project()), List.of());
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

    /** Scopes served from the cache and scopes built since start; entries kept now and their weight (paths). */
    public record Stats(long hits, long misses, int entries, long weight) {
    }

    public Stats stats() {
        long weight = BoundedCaches.weight(cache);
        var s = cache.stats();
        return new Stats(s.hitCount(), s.missCount(), (int) cache.estimatedSize(), weight);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        CaffeineCacheMetrics.monitor(registry, cache, NAME);
        Gauge.builder("poimen.search.scopes.cache.hit.ratio", cache, c -> c.stats().hitRate())
                .description("Share of restricted callers' search scopes served from the cache since start")
                .register(registry);
    }
}
