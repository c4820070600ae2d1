package io.poimen.memory.graph;

import io.poimen.memory.vault.VaultPaths;
import io.poimen.memory.vault.WikiLink;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Immutable snapshot of the wiki-link graph between the notes of the vault; safe to read from any thread.
 *
 * <p>An edge {@code a → b} exists for every resolved link from note {@code a} to a different note {@code b}
 * ({@code .md}, present in the note set). Self-links, links to attachments and unresolved links are not edges;
 * unresolved links are kept and reported by {@link #unresolvedLinks()}.
 */
public final class LinkGraph {
    private static final LinkGraph EMPTY = new LinkGraph(List.of(), List.of());

    private final Set<String> notes;
    private final Map<String, Set<String>> outgoing;
    private final Map<String, Set<String>> backlinks;
    private final List<WikiLink> unresolved;
    private final List<String> projects;
    private final Map<String, Set<String>> scopeCache = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> projectNotesCache = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> scopeGroupsCache = new ConcurrentHashMap<>();

    private LinkGraph(Collection<String> notePaths, List<WikiLink> links) {
        this.notes = Collections.unmodifiableSet(new TreeSet<>(notePaths));
        Map<String, Set<String>> out = new HashMap<>();
        Map<String, Set<String>> in = new HashMap<>();
        for (WikiLink link : links) {
            String from = link.sourcePath();
            String to = link.resolvedPath();
            if (isEdge(from, to)) {
                out.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
                in.computeIfAbsent(to, k -> new TreeSet<>()).add(from);
            }
        }
        this.outgoing = frozen(out);
        this.backlinks = frozen(in);
        this.unresolved = links.stream().filter(l -> !l.resolved()).toList();
        this.projects = notes.stream().map(VaultPaths::projectOf).filter(Objects::nonNull).distinct().sorted()
                .toList();
    }

    /** Graph of {@code notePaths} joined by the resolved ones of {@code links}. */
    public static LinkGraph of(Collection<String> notePaths, List<WikiLink> links) {
        Objects.requireNonNull(notePaths, "notePaths");
        Objects.requireNonNull(links, "links");
        if (notePaths.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("note paths must not contain null");
        }
        if (links.stream().anyMatch(l -> l == null || l.sourcePath() == null)) {
            throw new IllegalArgumentException("links must not be null and must have a source path");
        }
        return new LinkGraph(notePaths, links);
    }

    public static LinkGraph empty() {
        return EMPTY;
    }

    private boolean isEdge(String from, String to) {
        return to != null && !to.equals(from) && to.endsWith(".md") && notes.contains(from) && notes.contains(to);
    }

    private static Map<String, Set<String>> frozen(Map<String, Set<String>> m) {
        Map<String, Set<String>> copy = new HashMap<>();
        m.forEach((k, v) -> copy.put(k, Collections.unmodifiableSet(v)));
        return Collections.unmodifiableMap(copy);
    }

    /** Every note path, sorted. */
    public Set<String> notes() {
        return notes;
    }

    /** Notes that {@code path} links to, sorted; empty for unknown paths. */
    public Set<String> outgoing(String path) {
        return outgoing.getOrDefault(path, Set.of());
    }

    /** Notes that link to {@code path}, sorted; empty for unknown paths. */
    public Set<String> backlinks(String path) {
        return backlinks.getOrDefault(path, Set.of());
    }

    /** The start nodes and every note reachable from them along edges (breadth-first order, cycle-safe). */
    public Set<String> reachable(Collection<String> from) {
        return traverse(from, to -> true);
    }

    /**
     * Notes a query in {@code project} may see: every note under {@code projects/<project>/} plus every note under
     * {@code shared/} reachable from them. Only edges into the project or into {@code shared/} are followed, so a
     * shared note linking into another project never brings that project's notes into scope.
     */
    public Set<String> projectScope(String project) {
        Objects.requireNonNull(project, "project");
        return scopeCache.computeIfAbsent(project, p -> {
            List<String> own = notes.stream().filter(n -> p.equals(VaultPaths.projectOf(n))).toList();
            return traverse(own, to -> VaultPaths.isShared(to) || p.equals(VaultPaths.projectOf(to)));
        });
    }

    /** The notes under {@code projects/<project>/} (the same set instance until the graph is rebuilt). */
    public Set<String> projectNotes(String project) {
        Objects.requireNonNull(project, "project");
        return projectNotesCache.computeIfAbsent(project,
                p -> Set.copyOf(notes.stream().filter(n -> p.equals(VaultPaths.projectOf(n))).toList()));
    }

    /**
     * {@link #projectScope(String)} walking only through notes {@code readable} accepts: a note the caller may not
     * read is neither in the scope nor a way into it, so the scope does not depend on unreadable notes or their links.
     */
    public Set<String> projectScope(String project, Predicate<String> readable) {
        Set<String> full = projectScope(project);
        if (full.stream().allMatch(readable)) {
            return full;
        }
        List<String> own = notes.stream().filter(n -> project.equals(VaultPaths.projectOf(n)) && readable.test(n))
                .toList();
        return traverse(own, to -> (VaultPaths.isShared(to) || project.equals(VaultPaths.projectOf(to)))
                && readable.test(to));
    }

    /**
     * The access groups ({@link VaultPaths#accessGroupOf}) of {@link #projectScope(String)}'s notes, each with one
     * of its notes: asking for one note of each group tells every group the caller may not read.
     */
    public Map<String, String> scopeGroups(String project) {
        return scopeGroupsCache.computeIfAbsent(project, p -> {
            Map<String, String> out = new HashMap<>();
            projectScope(p).forEach(n -> out.putIfAbsent(VaultPaths.accessGroupOf(n), n));
            return Map.copyOf(out);
        });
    }

    private Set<String> traverse(Collection<String> from, Predicate<String> follow) {
        Set<String> seen = new LinkedHashSet<>(from);
        Deque<String> queue = new ArrayDeque<>(seen);
        while (!queue.isEmpty()) {
            for (String next : outgoing(queue.poll())) {
                if (follow.test(next) && seen.add(next)) {
                    queue.add(next);
                }
            }
        }
        return Collections.unmodifiableSet(seen);
    }

    /** Project names found under {@code projects/}, sorted. */
    public List<String> projects() {
        return projects;
    }

    /** Links whose target did not resolve, in input order. */
    public List<WikiLink> unresolvedLinks() {
        return unresolved;
    }

    /** Number of edges. */
    public int edgeCount() {
        return outgoing.values().stream().mapToInt(Set::size).sum();
    }
}
