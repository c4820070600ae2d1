package io.poimen.memory.security;

import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.PolicyStore;
import io.poimen.memory.security.policy.RbacEngine;
import io.poimen.memory.security.policy.RoleModel;
import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.LinkType;
import io.poimen.memory.vault.VaultPaths;
import io.poimen.memory.vault.WikiLink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a restricted caller's query pays for its scope on a 10,000-note project, with the real policy engine
 * (policy files on disk, one stat per lookup). Before {@link SearchScopes}: the walk of the project's notes through
 * readable notes, and the TF-IDF pass asking the predicate for every indexed path (re-enacted here: that loop is
 * gone from the code), per query. After: the cached scope and the TF-IDF search with its cached hidden chunks,
 * the read decisions made once per folder per query. Prints the figures; asserts only that both give the same
 * scope (timings on a shared machine are not asserted).
 */
class RestrictedScopeCostTest {
    static final int NOTES = 10_000;
    static final int FOLDERS = 50;
    static final int ROUNDS = 200;

    @TempDir Path root;

    @Test
    void aRestrictedCallersScopeIsPaidOncePerGraphAndPrintsItsCost() throws Exception {
        Path vault = root.resolve("vault");
        Path policies = Files.createDirectories(root.resolve("policies"));
        Files.writeString(policies.resolve("default.yaml"), "version: 1\ndefault_access: public\nproject_default: deny\n");
        Files.createDirectories(vault.resolve("projects/big"));
        Files.writeString(vault.resolve("projects/big/_access.yaml"), "access_level: group\nallowed_groups: [team]\n");
        List<String> paths = new ArrayList<>();
        List<WikiLink> links = new ArrayList<>();
        List<Chunk> chunks = new ArrayList<>();
        Random random = new Random(7);
        String[] words = "pod crash kubectl rollout canary helm node drain cache queue retry gateway".split(" ");
        for (int i = 0; i < NOTES; i++) {
            String folder = "projects/big/f-" + (i % FOLDERS);
            String path = folder + "/n-" + i + ".md";
            paths.add(path);
            if (i > 0) {
                String to = "projects/big/f-" + ((i - 1) % FOLDERS) + "/n-" + (i - 1) + ".md";
                links.add(new WikiLink(path, to, to, null, null, null, false, LinkType.MEMORY, to));
            }
            String text = words[random.nextInt(words.length)] + " " + words[random.nextInt(words.length)] + " note " + i;
            chunks.add(new Chunk(Chunk.idOf(path, 0), path, VaultPaths.projectOf(path), 0, "h", List.of("h"), text, 4,
                    new ChunkMetadata("h", text, List.of(), ChunkMetadata.CONCEPT), List.of()));
        }
        for (String denied : List.of("f-3", "f-17")) {
            Files.createDirectories(vault.resolve("projects/big/" + denied));
            Files.writeString(vault.resolve("projects/big/" + denied + "/_access.yaml"),
                    "access_level: private\nowner_group: secret-team\n");
        }
        GraphService graph = new GraphService();
        graph.replace(LinkGraph.of(paths, links));
        TfIdfIndex tfidf = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
        tfidf.addAll(chunks);
        RbacEngine engine = new RbacEngine(new PolicyStore(vault, policies), RoleModel::defaults);
        Caller caller = new Caller("carol", "carol", null, List.of("team"), List.of("viewer"), List.of(), false);
        SearchScopes scopes = new SearchScopes(graph);
        List<String> terms = List.of("pod", "crash", "kubectl");

        LinkGraph g = graph.current();
        SearchScope walked = SearchScope.ofProject("big", g.projectScope("big", new ReadableScope(engine, caller)),
                g.projectNotes("big"), List.of());
        SearchScope cached = scopes.scope("big", new ReadableScope(engine, caller), List.of());
        assertThat(cached.paths()).isEqualTo(walked.paths()).hasSize(NOTES - 2 * NOTES / FOLDERS);
        assertThat(cached.byProject()).isEqualTo(walked.byProject());
        List<Hit> restricted = tfidf.search(terms, "big", cached.paths(), new ReadableScope(engine, caller), 10);
        assertThat(restricted).isNotEmpty().allMatch(h -> cached.containsChunk(h.chunkId()));

        for (int warm = 0; warm < 2; warm++) {
            long before = 0;
            long after = 0;
            long open = 0;
            for (int i = 0; i < ROUNDS; i++) {
                // before: the walk through readable notes and the TF-IDF pass over every indexed path, per query
                long t0 = System.nanoTime();
                ReadableScope fresh = new ReadableScope(engine, caller);
                SearchScope s0 = SearchScope.ofProject("big", g.projectScope("big", fresh), g.projectNotes("big"),
                        List.of());
                int hidden = 0;
                for (String path : g.notes()) {
                    hidden += fresh.test(path) ? 0 : 1;
                }
                tfidf.search(terms, "big", s0.paths(), null, 10); // the scoring itself, as after
                long t1 = System.nanoTime();
                // after: the scope and the hidden chunks from their caches; one decision per folder per query
                ReadableScope query = new ReadableScope(engine, caller);
                SearchScope s = scopes.scope("big", query, List.of());
                tfidf.search(terms, "big", s.paths(), query, 10);
                long t2 = System.nanoTime();
                tfidf.search(terms, "big", s.paths(), null, 10);
                long t3 = System.nanoTime();
                before += t1 - t0;
                after += t2 - t1;
                open += t3 - t2;
                assertThat(hidden).isEqualTo(2 * NOTES / FOLDERS);
                assertThat(s0.paths()).hasSameSizeAs(s.paths());
            }
            if (warm == 1) {
                System.out.printf("restricted caller, %d notes in %d folders (2 denied), per query: scope walk +"
                                + " per-path IDF decisions (before) %.3f ms; cached scope + TF-IDF search (after)"
                                + " %.3f ms; TF-IDF search of an unrestricted caller %.3f ms%n", NOTES, FOLDERS,
                        before / 1e6 / ROUNDS, after / 1e6 / ROUNDS, open / 1e6 / ROUNDS);
            }
        }
        assertThat(scopes.stats().misses()).isEqualTo(1);
        assertThat(scopes.stats().hits()).isEqualTo(2L * ROUNDS);
        assertThat(tfidf.hiddenCacheStats()[1]).isEqualTo(1);
    }
}
