package io.poimen.memory.web;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.retrieval.filter.NoteCatalog;
import io.poimen.memory.retrieval.filter.NoteFacts;
import io.poimen.memory.retrieval.filter.Timeframe;
import io.poimen.memory.security.ReadAccess;
import io.poimen.memory.security.policy.VaultPathGuard;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.camel.Exchange;
import org.apache.camel.Header;

/**
 * Browsing by time and folder ({@code GET /memory/vault/recent} and {@code /memory/vault/directory}, the MCP tools
 * {@code recent_activity} and {@code list_directory}). Both list only notes the caller may read, and count only
 * those: a folder holding nothing but notes the caller may not read does not exist for them.
 */
public class VaultActivity {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    static final String DEFAULT_TIMEFRAME = "7d";

    /** A note in a listing: its path, title and time ({@link NoteFacts#changed}). */
    public record NoteEntry(String path, String title, Instant changed) {
    }

    /** The notes changed since {@code since}, newest first; {@code count} all of them, {@code notes} up to limit. */
    public record Recent(String project, String timeframe, Instant since, int count, List<NoteEntry> notes,
                         boolean truncated) {
    }

    /** A sub-folder and how many readable notes it holds (at any depth). */
    public record Folder(String path, String name, int count) {
    }

    /** One folder: its sub-folders, its own notes, and the readable notes under it at any depth ({@code count}). */
    public record Directory(String path, int count, List<Folder> folders, List<NoteEntry> notes) {
    }

    private final VaultBrowser browser;
    private final GraphService graph;
    private final NoteCatalog catalog;
    private final Clock clock;

    /** @param browser the read checks and project scopes of the other listings */
    public VaultActivity(VaultBrowser browser, GraphService graph, NoteCatalog catalog, Clock clock) {
        this.browser = browser;
        this.graph = graph;
        this.catalog = catalog;
        this.clock = clock;
    }

    /**
     * {@code GET /memory/vault/recent?project=&timeframe=&limit=}: notes changed in the timeframe (default 7d), in
     * the project's search scope, or among all readable notes without a project.
     */
    public Recent recent(Exchange exchange, @Header("project") String project, @Header("timeframe") String timeframe,
                         @Header("limit") String limit) {
        int max = limit(limit);
        String frame = timeframe == null || timeframe.isBlank() ? DEFAULT_TIMEFRAME : timeframe.trim();
        Instant since = Timeframe.since(frame, clock);
        ReadAccess access = browser.access(exchange);
        boolean all = project == null || project.isBlank();
        Collection<String> paths = all ? access.filter(graph.current().notes())
                : browser.scope(access, graph.current(), project);
        Map<String, NoteFacts> facts = catalog.facts();
        List<NoteEntry> changed = paths.stream().map(facts::get)
                .filter(f -> f != null && f.changed() != null && !f.changed().isBefore(since))
                .sorted(Comparator.comparing(NoteFacts::changed).reversed().thenComparing(NoteFacts::path))
                .map(VaultActivity::entry).toList();
        return new Recent(all ? null : project, frame, since, changed.size(),
                changed.subList(0, Math.min(max, changed.size())), changed.size() > max);
    }

    /** {@code GET /memory/vault/directory?path=}: one folder of the vault (none: the root). */
    public Directory directory(Exchange exchange, @Header("path") String path) {
        String folder = folder(path);
        ReadAccess access = browser.access(exchange);
        Map<String, NoteFacts> facts = catalog.facts();
        Map<String, Integer> counts = new TreeMap<>();
        List<NoteEntry> notes = new ArrayList<>();
        int count = 0;
        for (String note : graph.current().notes()) {
            if (!note.startsWith(folder) || !access.allows(note)) {
                continue;
            }
            count++;
            String rest = note.substring(folder.length());
            int slash = rest.indexOf('/');
            if (slash < 0) {
                NoteFacts f = facts.get(note);
                notes.add(f != null ? entry(f) : new NoteEntry(note, null, null));
            } else {
                counts.merge(rest.substring(0, slash), 1, Integer::sum);
            }
        }
        if (count == 0 && !folder.isEmpty()) {
            throw ApiException.notFound("no such folder: " + path);
        }
        notes.sort(Comparator.comparing(NoteEntry::path));
        List<Folder> folders = counts.entrySet().stream()
                .map(e -> new Folder(folder + e.getKey() + "/", e.getKey(), e.getValue())).toList();
        return new Directory(folder, count, folders, notes);
    }

    private static NoteEntry entry(NoteFacts f) {
        return new NoteEntry(f.path(), f.title(), f.changed());
    }

    /** "" for the root, else the folder with one trailing '/'. */
    private static String folder(String path) {
        if (path == null || path.isBlank() || path.equals("/")) {
            return "";
        }
        String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        VaultPathGuard.check(p);
        return p + "/";
    }

    private static int limit(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_LIMIT;
        }
        int max;
        try {
            max = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("limit must be a whole number, got: " + text);
        }
        if (max < 1 || max > MAX_LIMIT) {
            throw ApiException.unprocessable("limit must be between 1 and " + MAX_LIMIT + ", got " + max);
        }
        return max;
    }

}
