package io.poimen.memory.web;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.CallerResolver;
import io.poimen.memory.vault.VaultPaths;
import io.poimen.memory.vault.WikiLink;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.camel.Exchange;
import org.apache.camel.Header;

/**
 * The read API behind {@code routes/vault.camel.yaml}: vault listing, one note with its links and backlinks,
 * projects, skills and graph queries. Every method resolves the caller and checks read access; notes of other
 * policies the caller may not read are left out of listings without a word, as in query results.
 */
public class VaultBrowser {
    private final GraphService graph;
    private final NoteStore notes;
    private final VaultFiles files;
    private final CallerResolver callers;
    private final AccessChecks checks;

    public VaultBrowser(GraphService graph, NoteStore notes, VaultFiles files, CallerResolver callers,
                        AccessChecks checks) {
        this.graph = graph;
        this.notes = notes;
        this.files = files;
        this.callers = callers;
        this.checks = checks;
    }

    /** {@code GET /memory/vault?project=}: the project's scope, or every readable note without a project. */
    public VaultViews.Listing listing(Exchange exchange, @Header("project") String project) {
        ReadAccess access = access(exchange);
        LinkGraph g = graph.current();
        Set<String> paths;
        if (project == null || project.isBlank()) {
            paths = g.notes();
            project = null;
        } else {
            requireProject(g, project);
            access.require(VaultPaths.PROJECTS + project + "/");
            paths = g.projectScope(project);
        }
        Map<String, NoteStore.NoteRow> rows = rowsByPath();
        List<VaultViews.FileEntry> entries = access.filter(paths).stream()
                .sorted()
                .map(p -> {
                    NoteStore.NoteRow row = rows.get(p);
                    return new VaultViews.FileEntry(p, row != null ? row.title() : null,
                            row != null ? row.updatedAt() : null);
                })
                .toList();
        return new VaultViews.Listing(project, entries);
    }

    /** {@code GET /memory/vault/file?path=}: content read from the vault folder, links from the store. */
    public VaultViews.Note note(Exchange exchange, @Header("path") String path) {
        VaultFiles.checked(path);
        ReadAccess access = access(exchange);
        NoteStore.NoteRow row = notes.note(path).orElseThrow(() -> ApiException.notFound("no such note: " + path));
        access.require(path);
        String content = files.read(path);
        List<VaultViews.Link> links = notes.linksFrom(path).stream().map(VaultBrowser::link).toList();
        List<String> backlinks = access.filter(graph.current().backlinks(path));
        return new VaultViews.Note(path, row.title(), row.project(), row.updatedAt(), content, links, backlinks);
    }

    /** {@code GET /memory/projects}: projects the caller may read. */
    public VaultViews.Projects projects(Exchange exchange) {
        ReadAccess access = access(exchange);
        LinkGraph g = graph.current();
        Map<String, Long> counts = g.notes().stream().map(VaultPaths::projectOf)
                .filter(java.util.Objects::nonNull)
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        List<VaultViews.Project> projects = g.projects().stream()
                .filter(p -> access.allows(VaultPaths.PROJECTS + p + "/"))
                .map(p -> {
                    String index = VaultPaths.PROJECTS + p + "/index.md";
                    return new VaultViews.Project(p, counts.getOrDefault(p, 0L).intValue(),
                            g.notes().contains(index) ? index : null);
                })
                .toList();
        return new VaultViews.Projects(projects);
    }

    /** {@code GET /memory/skills}: one entry per skill folder (its {@code SKILL.md}, else its first note). */
    public VaultViews.Skills skills(Exchange exchange) {
        ReadAccess access = access(exchange);
        Map<String, List<NoteStore.NoteRow>> bySkill = notes.notes().stream()
                .filter(r -> VaultPaths.skillOf(r.path()) != null)
                .collect(Collectors.groupingBy(r -> VaultPaths.skillOf(r.path())));
        List<VaultViews.Skill> skills = bySkill.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> {
                    NoteStore.NoteRow main = e.getValue().stream()
                            .min(Comparator.comparing((NoteStore.NoteRow r) -> !r.path().endsWith("/SKILL.md"))
                                    .thenComparing(NoteStore.NoteRow::path))
                            .orElseThrow();
                    return new VaultViews.Skill(e.getKey(), main.path(), main.title());
                })
                .filter(s -> access.allows(s.path()))
                .toList();
        return new VaultViews.Skills(skills);
    }

    /** {@code GET /memory/graph/reachable?project=}: the project's notes and the shared notes reachable from them. */
    public VaultViews.Reachable reachable(Exchange exchange, @Header("project") String project) {
        if (project == null || project.isBlank()) {
            throw ApiException.badRequest("project is required");
        }
        ReadAccess access = access(exchange);
        LinkGraph g = graph.current();
        requireProject(g, project);
        access.require(VaultPaths.PROJECTS + project + "/");
        return new VaultViews.Reachable(project, access.filter(g.projectScope(project)));
    }

    /** {@code GET /memory/graph/backlinks?path=}: readable notes that link to {@code path}. */
    public VaultViews.Backlinks backlinks(Exchange exchange, @Header("path") String path) {
        VaultFiles.checked(path);
        ReadAccess access = access(exchange);
        LinkGraph g = graph.current();
        if (!g.notes().contains(path)) {
            throw ApiException.notFound("no such note: " + path);
        }
        access.require(path);
        return new VaultViews.Backlinks(path, access.filter(g.backlinks(path)));
    }

    private ReadAccess access(Exchange exchange) {
        return new ReadAccess(checks, callers.caller(exchange), exchange.getExchangeId());
    }

    private static void requireProject(LinkGraph g, String project) {
        if (!g.projects().contains(project)) {
            throw ApiException.notFound("unknown project: " + project);
        }
    }

    private Map<String, NoteStore.NoteRow> rowsByPath() {
        return notes.notes().stream().collect(Collectors.toMap(NoteStore.NoteRow::path, Function.identity(),
                (a, b) -> a));
    }

    private static VaultViews.Link link(WikiLink l) {
        return new VaultViews.Link(l.raw(), l.target(), l.resolvedPath(), l.type() != null ? l.type().dbValue() : null,
                l.heading(), l.alias(), l.embed());
    }
}
