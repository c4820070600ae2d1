package io.poimen.memory.retrieval.filter;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.NoteStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@link NoteFacts} of every stored note, read from the note store once per link-graph version (the graph is
 * published last in an ingest, so a new version means the store holds the notes it knows) and shared by every
 * query and listing until the next. {@code changedField}, when set, names a front-matter date field that is a
 * note's time where the note has it (else the time of its last commit, as the store keeps it).
 */
public class NoteCatalog {
    private record Loaded(long version, Map<String, NoteFacts> facts) {
    }

    private final GraphService graph;
    private final NoteStore notes;
    private final String changedField;
    private volatile Loaded loaded = new Loaded(-1, Map.of());

    public NoteCatalog(GraphService graph, NoteStore notes, String changedField) {
        this.graph = graph;
        this.notes = notes;
        this.changedField = changedField == null || changedField.isBlank() ? null : changedField.trim();
    }

    /** Path → facts of each stored note. */
    public Map<String, NoteFacts> facts() {
        long version = graph.versioned().version();
        Loaded l = loaded;
        if (l.version() != version) {
            l = new Loaded(version, load());
            loaded = l;
        }
        return l.facts();
    }

    private Map<String, NoteFacts> load() {
        Map<String, Map<String, Object>> frontMatters = notes.frontMatters();
        Map<String, NoteFacts> out = new HashMap<>();
        for (NoteStore.NoteRow row : notes.notes()) {
            Map<String, Object> fields = frontMatters.getOrDefault(row.path(), Map.of());
            out.put(row.path(), new NoteFacts(row.path(), row.title(), row.tags(), fields, changed(row, fields)));
        }
        return Map.copyOf(out);
    }

    private Instant changed(NoteStore.NoteRow row, Map<String, Object> fields) {
        if (changedField != null && fields.get(changedField) instanceof String text) {
            Instant declared = FilterValues.instant(text);
            if (declared != null) {
                return declared;
            }
        }
        return row.updatedAt();
    }
}
