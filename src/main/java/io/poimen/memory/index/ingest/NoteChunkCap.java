package io.poimen.memory.index.ingest;

import io.poimen.memory.vault.ParsedNote;
import java.util.List;

/**
 * At most {@code poimen.vault.max-chunks-per-note} chunks of one note are embedded and indexed: a note of tens of
 * thousands of tiny sections would otherwise cost minutes of embedding and crowd every result list. The first
 * chunks are kept (front matter, title and the start of the note), the cut is reported by path.
 */
final class NoteChunkCap {
    private NoteChunkCap() {
    }

    static ParsedNote capped(ParsedNote note, int max, List<IngestProblem> problems) {
        if (note.chunks().size() <= max) {
            return note;
        }
        problems.add(new IngestProblem(note.path(), "note has " + note.chunks().size() + " chunks (one per section); "
                + "only the first " + max + " are indexed (poimen.vault.max-chunks-per-note)"));
        return new ParsedNote(note.path(), note.project(), note.title(), note.contentHash(), note.frontMatter(),
                note.links(), List.copyOf(note.chunks().subList(0, max)));
    }
}
