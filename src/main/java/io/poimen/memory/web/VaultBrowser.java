package io.poimen.memory.web;

import io.poimen.memory.api.VaultViews;
import io.poimen.memory.security.ReadAccess;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.retrieval.NoteLookup;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.vault.LinkType;
import io.poimen.memory.vault.NoteVersion;
import io.poimen.memory.vault.VaultPaths;
import io.poimen.memory.vault.WikiLink;
import io.poimen.memory.vault.WikiLinkParser;
import java.util.Collection;
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
    private final Access checks;
    private final SearchScopes scopes;
    private final NoteLookup names;

    public VaultBrowser(GraphService graph, NoteStore notes, VaultFiles files, CallerResolver callers,
                        Access checks, SearchScopes scopes, NoteLookup names) {
        this.scopes = scopes;
        this.names = names;
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
        Collection<String> paths;
        if (project == null || project.isBlank()) {
            paths = access.filter(g.notes());
            project = null;
        } else {
            paths = scope(access, g, project);
        }
        Map<String, NoteStore.NoteRow> rows = rowsByPath();
        List<VaultViews.FileEntry> entries = paths.stream()
                .sorted()
                .map(p -> {
                    NoteStore.NoteRow row = rows.get(p);
                    return new VaultViews.FileEntry(p, row != null ? row.title() : null,
                            row != null ? row.updatedAt() : null);
                })
                .toList();
        return new VaultViews.Listing(project, entries);
    }

    /**
     * {@code GET /memory/vault/file?path=}: content read from the vault folder, links from the store. {@code path}
     * is a path, a wiki-link name or alias, or a {@code memory://} URL ({@link NoteLookup}); the answer's
     * {@code path} is the note's. A note the caller may not read answers as a missing one (404, same body); links
     * to such notes show no resolved path.
     */
    public VaultViews.Note note(Exchange exchange, @Header("path") String name) {
        ReadAccess access = access(exchange);
        String path = names.path(name, access);
        NoteStore.NoteRow row = notes.note(path).orElseThrow(() -> ReadAccess.notFound(name));
        String content = files.read(path);
        List<VaultViews.Link> links = notes.linksFrom(path).stream().map(l -> link(l, access)).toList();
        List<String> backlinks = access.filter(graph.current().backlinks(path));
        return new VaultViews.Note(path, row.title(), row.project(), row.updatedAt(), content,
                NoteVersion.of(content), links, backlinks);
    }

    /** {@code GET /memory/projects}: projects the caller may read. */
    public VaultViews.Projects projects(Exchange exchange) {
        ReadAccess access = access(exchange);
        LinkGraph g = graph.current();
        Map<String, Long> counts = g.notes().stream().filter(n -> VaultPaths.projectOf(n) != null)
                .filter(access::allows).map(VaultPaths::projectOf)
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        List<VaultViews.Project> projects = g.projects().stream()
                .filter(p -> access.allows(VaultPaths.PROJECTS + p + "/"))
                .map(p -> {
                    String index = VaultPaths.PROJECTS + p + "/index.md";
                    return new VaultViews.Project(p, counts.getOrDefault(p, 0L).intValue(),
                            g.notes().contains(index) && access.allows(index) ? index : null);
                })
                .toList();
        return new VaultViews.Projects(projects);
    }

    /** {@code GET /memory/skills}: one entry per skill folder (its {@code SKILL.md}, else its first note). */
    public VaultViews.Skills skills(Exchange exchange) {
        ReadAccess access = access(exchange);
        Map<String, List<NoteStore.NoteRow>> bySkill = notes.notes().stream()
                .filter(r -> VaultPaths.skillOf(r.path()) != null && access.allows(r.path()))
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
                .toList();
        return new VaultViews.Skills(skills);
    }

    /** {@code GET /memory/graph/reachable?project=}: the project's notes and the shared notes reachable from them. */
    public VaultViews.Reachable reachable(Exchange exchange, @Header("project") String project) {
        if (project == null || project.isBlank()) {
            throw ApiException.badRequest("project is required");
        }
        ReadAccess access = access(exchange);
        return new VaultViews.Reachable(project, List.copyOf(scope(access, graph.current(), project)));
    }

    /**
     * {@code GET /memory/graph/backlinks?path=}: readable notes that link to the note {@code path} names
     * ({@link NoteLookup}; denied = missing: 404).
     */
    public VaultViews.Backlinks backlinks(Exchange exchange, @Header("path") String name) {
        ReadAccess access = access(exchange);
        String path = names.path(name, access);
        LinkGraph g = graph.current();
        if (!g.notes().contains(path)) {
            throw ReadAccess.notFound(name);
        }
        return new VaultViews.Backlinks(path, access.filter(g.backlinks(path)));
    }

    /**
     * The project's notes and the shared notes reachable from them, through readable notes only (the project is
     * checked first: one 403 for a project the caller may not read and, with authentication, for one that does not
     * exist). The query's scope cache: the walk runs once per graph version and caller's denials, the read decisions
     * (one per folder) on every request.
     */
    Set<String> scope(ReadAccess access, LinkGraph g, String project) {
        VaultPathGuard.projectName(project);
        access.require(VaultPaths.PROJECTS + project + "/");
        if (!g.projects().contains(project)) {
            throw access.unknownProject(project);
        }
        return scopes.scope(project, access::allows, List.of()).paths();
    }

    ReadAccess access(Exchange exchange) {
        return checks.reads(callers.caller(exchange), ExchangeSecurity.traceId(exchange));
    }

    private Map<String, NoteStore.NoteRow> rowsByPath() {
        return notes.notes().stream().collect(Collectors.toMap(NoteStore.NoteRow::path, Function.identity(),
                (a, b) -> a));
    }

    /** A link to a note the caller may not read shows exactly as an unresolved link: no path, the guessed type. */
    private static VaultViews.Link link(WikiLink l, ReadAccess access) {
        boolean shown = l.resolvedPath() != null && access.allows(l.resolvedPath());
        LinkType type = shown || l.resolvedPath() == null ? l.type() : WikiLinkParser.typeAsWritten(l);
        return new VaultViews.Link(l.raw(), l.target(), shown ? l.resolvedPath() : null,
                type != null ? type.dbValue() : null, l.heading(), l.alias(), l.embed());
    }
}
