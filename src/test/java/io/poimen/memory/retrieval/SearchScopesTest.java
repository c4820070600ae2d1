package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.vault.LinkType;
import io.poimen.memory.vault.WikiLink;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class SearchScopesTest {
    static final int NOTES = SearchScope.PROJECT_FILTER_MIN_PATHS + 5;

    static LinkGraph graph(int notes) {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < notes; i++) {
            paths.add("projects/big/area-" + (i % 7) + "/n-" + i + ".md");
        }
        paths.add("projects/big/secret/s-0.md");
        paths.add("projects/big/secret/s-1.md");
        paths.add("shared/concepts/via-secret.md");
        paths.add("shared/concepts/open.md");
        List<WikiLink> links = List.of(link("projects/big/area-0/n-0.md", "shared/concepts/open.md"),
                link("projects/big/secret/s-0.md", "shared/concepts/via-secret.md"));
        return LinkGraph.of(paths, links);
    }

    static WikiLink link(String from, String to) {
        return new WikiLink(from, to, to, null, null, null, false, LinkType.MEMORY, to);
    }

    @Test
    void aRestrictedCallersScopeIsBuiltOnceAndServedFromTheCacheUntilTheGraphChanges() {
        GraphService graph = new GraphService();
        graph.replace(graph(NOTES));
        SearchScopes scopes = new SearchScopes(graph);
        Predicate<String> readable = p -> !p.startsWith("projects/big/secret/");

        SearchScope first = scopes.scope("big", readable, List.of());
        assertThat(first.paths()).contains("shared/concepts/open.md")
                .doesNotContain("projects/big/secret/s-0.md", "shared/concepts/via-secret.md");
        assertThat(first.byProject().excluded()).containsExactlyInAnyOrder("projects/big/secret/s-0.md",
                "projects/big/secret/s-1.md");
        assertThat(scopes.stats().misses()).isEqualTo(1);

        // another predicate object with the same denials: the same scope, from the cache; tags kept per query
        SearchScope second = scopes.scope("big", p -> !p.contains("/secret/"), List.of("ops"));
        assertThat(second.paths()).isSameAs(first.paths());
        assertThat(second.byProject()).isSameAs(first.byProject());
        assertThat(second.tags()).containsExactly("ops");
        assertThat(scopes.stats().hits()).isEqualTo(1);

        graph.replace(graph(NOTES + 1));
        SearchScope third = scopes.scope("big", readable, List.of());
        assertThat(scopes.stats().misses()).isEqualTo(2);
        assertThat(scopes.stats().entries()).as("the old graph's entries are dropped").isEqualTo(1);
        assertThat(third.paths()).hasSize(first.paths().size() + 1);
    }

    @Test
    void changedDecisionsGiveAnotherScopeOnTheNextQuery() {
        GraphService graph = new GraphService();
        graph.replace(graph(NOTES));
        SearchScopes scopes = new SearchScopes(graph);
        // a policy file edited between two queries: the caller's predicate answers differently from then on
        AtomicReference<Set<String>> deniedFolders = new AtomicReference<>(Set.of("projects/big/secret"));
        Predicate<String> policies = p -> !deniedFolders.get().contains(p.substring(0, p.lastIndexOf('/')));

        assertThat(scopes.scope("big", policies, List.of()).paths()).doesNotContain("projects/big/secret/s-1.md");
        deniedFolders.set(Set.of());
        SearchScope opened = scopes.scope("big", policies, List.of());
        assertThat(opened.paths()).contains("projects/big/secret/s-1.md", "shared/concepts/via-secret.md");
        assertThat(opened.byProject().excluded()).isEmpty();
        deniedFolders.set(Set.of("projects/big/area-3"));
        SearchScope narrowed = scopes.scope("big", policies, List.of());
        assertThat(narrowed.paths()).noneMatch(p -> p.startsWith("projects/big/area-3/"));
        assertThat(scopes.stats().misses()).isEqualTo(3);
        assertThat(scopes.stats().hits()).isZero();
        // no predicate (no-auth mode): the whole project scope
        assertThat(scopes.scope("big", null, List.of()).paths()).isSameAs(graph.current().projectScope("big"));
    }

    @Test
    void aSmallScopeIsAPathListAndAQueryOnAnOlderSnapshotIsNotCached() {
        GraphService graph = new GraphService();
        graph.replace(graph(10));
        SearchScopes scopes = new SearchScopes(graph);
        assertThat(scopes.scope("big", p -> true, List.of()).byProject()).isNull();
        assertThat(scopes.stats().entries()).isEqualTo(1);
    }

    @Test
    void theCacheHoldsAtMost256ScopesAndAMillionPathsAndCountsHitsInItsMeters() {
        List<String> paths = new ArrayList<>();
        for (int p = 0; p < SearchScopes.MAX_ENTRIES + 44; p++) {
            paths.add("projects/p" + p + "/a.md");
        }
        // one project of 12 folders x 1,000 notes: denying one folder leaves a scope of 11,000 paths
        for (int i = 0; i < 12_000; i++) {
            paths.add("projects/huge/f-" + (i % 12) + "/n-" + i + ".md");
        }
        GraphService graph = new GraphService();
        graph.replace(LinkGraph.of(paths, List.of()));
        SearchScopes scopes = new SearchScopes(graph);
        // the same cache with a tenth of the path bound, so that a few scopes reach it
        SearchScopes tenth = new SearchScopes(graph, SearchScopes.MAX_ENTRIES, SearchScopes.MAX_PATHS / 10);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        scopes.bindTo(registry);

        scopes.scope("p0", null, List.of());
        scopes.scope("p0", null, List.of());
        assertThat(scopes.stats().hits()).isEqualTo(1);
        for (int p = 1; p < SearchScopes.MAX_ENTRIES + 44; p++) {
            scopes.scope("p" + p, null, List.of());
            assertThat(scopes.stats().entries()).isLessThanOrEqualTo(SearchScopes.MAX_ENTRIES);
        }
        assertThat(scopes.stats().misses()).isEqualTo(SearchScopes.MAX_ENTRIES + 44);
        assertThat(scopes.stats().entries()).isEqualTo(SearchScopes.MAX_ENTRIES);

        for (int f = 0; f < 12; f++) {
            String denied = "projects/huge/f-" + f + "/";
            assertThat(scopes.scope("huge", p -> !p.startsWith(denied), List.of()).paths()).hasSize(11_000);
            assertThat(tenth.scope("huge", p -> !p.startsWith(denied), List.of()).paths()).hasSize(11_000);
            assertThat(tenth.stats().weight()).isLessThanOrEqualTo(SearchScopes.MAX_PATHS / 10);
        }
        assertThat(tenth.stats().entries()).as("nine 11,000-path scopes fit in 100,000").isEqualTo(9);
        assertThat(scopes.stats().weight()).isLessThanOrEqualTo(SearchScopes.MAX_PATHS);
        assertThat(registry.get("cache.gets").tag("cache", SearchScopes.NAME).tag("result", "hit")
                .functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("cache.gets").tag("cache", SearchScopes.NAME).tag("result", "miss")
                .functionCounter().count()).isEqualTo(SearchScopes.MAX_ENTRIES + 44 + 12);
        assertThat(registry.get("poimen.search.scopes.cache.hit.ratio").gauge().value())
                .isEqualTo(1.0 / (SearchScopes.MAX_ENTRIES + 44 + 13));
    }
}
