package io.poimen.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.vault.LinkType;
import io.poimen.memory.vault.VaultPaths;
import io.poimen.memory.vault.WikiLink;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.constraints.IntRange;

class LinkGraphPropertiesTest {
    /** Three projects, shared notes and one top-level note. */
    static final List<String> NOTES = List.of(
            "projects/a/0.md", "projects/a/1.md", "projects/a/x/2.md",
            "projects/b/0.md", "projects/b/1.md",
            "projects/c/0.md",
            "shared/concepts/0.md", "shared/concepts/1.md", "shared/skills/SKILL-x/SKILL.md",
            "shared/skills/SKILL-y/SKILL.md", "top.md");

    @Provide
    Arbitrary<List<Tuple2<Integer, Integer>>> edges() {
        Arbitrary<Integer> node = Arbitraries.integers().between(0, NOTES.size() - 1);
        return Combinators.combine(node, node).as(Tuple::of).list().ofMaxSize(40);
    }

    static LinkGraph graph(List<Tuple2<Integer, Integer>> edges) {
        List<WikiLink> links = edges.stream().map(e -> {
            String to = NOTES.get(e.get2());
            return new WikiLink(NOTES.get(e.get1()), to, to, null, null, null, false, LinkType.MEMORY, to);
        }).toList();
        return LinkGraph.of(NOTES, links);
    }

    /** Naive fixed point: repeat "add every target of every edge out of the set" until nothing changes. */
    static Set<String> fixedPoint(Set<String> start, List<Tuple2<Integer, Integer>> edges, boolean scopeOf,
                                  String project) {
        Set<String> set = new HashSet<>(start);
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Tuple2<Integer, Integer> e : edges) {
                String from = NOTES.get(e.get1());
                String to = NOTES.get(e.get2());
                boolean allowed = !scopeOf || VaultPaths.isShared(to) || project.equals(VaultPaths.projectOf(to));
                if (set.contains(from) && allowed && set.add(to)) {
                    changed = true;
                }
            }
        }
        return set;
    }

    @Property
    void reachableIsTheFixedPoint(@ForAll("edges") List<Tuple2<Integer, Integer>> edges,
                                  @ForAll @IntRange(min = 0, max = 10) int start) {
        Set<String> from = Set.of(NOTES.get(start));
        assertThat(graph(edges).reachable(from)).isEqualTo(fixedPoint(from, edges, false, null));
    }

    @Property
    void scopeHoldsTheProjectAndReachableSharedNotesOnly(@ForAll("edges") List<Tuple2<Integer, Integer>> edges) {
        LinkGraph g = graph(edges);
        for (String p : List.of("a", "b", "c")) {
            Set<String> scope = g.projectScope(p);
            Set<String> own = new HashSet<>(NOTES.stream().filter(n -> p.equals(VaultPaths.projectOf(n))).toList());
            assertThat(scope).containsAll(own);
            assertThat(scope).allMatch(n -> p.equals(VaultPaths.projectOf(n)) || VaultPaths.isShared(n));
            assertThat(scope).isEqualTo(fixedPoint(own, edges, true, p));
        }
    }
}
