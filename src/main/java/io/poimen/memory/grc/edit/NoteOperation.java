package io.poimen.memory.grc.edit;

import io.poimen.memory.vault.FrontMatterFields;
import io.poimen.memory.vault.NoteSections;
import java.util.List;

/**
 * One change an editor asks of the vault. Several in one draft are applied in order, each to the result of the ones
 * before (create a note, then edit it). {@link #op()} is the name in the JSON request.
 */
public sealed interface NoteOperation {

    /** The note the operation works on. */
    String path();

    /** The paths it writes, besides {@link #path()}: a move's destination. */
    default List<String> alsoWrites() {
        return List.of();
    }

    String op();

    /** An operation that changes the text of one existing note. */
    sealed interface TextEdit extends NoteOperation {
        /** The note's new text; throws {@link io.poimen.memory.api.ApiException} when the edit cannot apply. */
        String edit(String note);
    }

    /** A new note; the path must be free. */
    record Create(String path, String content) implements NoteOperation {
        public String op() {
            return "create";
        }
    }

    /** The whole text of a note, new or existing (what a draft of {@code document_path} + {@code content} is). */
    record Write(String path, String content) implements NoteOperation {
        public String op() {
            return "write";
        }
    }

    /** The whole text of an existing note. */
    record Replace(String path, String content) implements TextEdit {
        public String op() {
            return "replace";
        }

        public String edit(String note) {
            return NoteText.text(content);
        }
    }

    /** The text under a heading (the heading line stays); {@code section} is a heading path ({@code A#B}). */
    record ReplaceSection(String path, String section, String content) implements TextEdit {
        public String op() {
            return "replace_section";
        }

        public String edit(String note) {
            NoteSections.Section s = NoteText.section(note, section, path);
            String body = NoteText.block(content, s.end() < note.length());
            return NoteText.endLine(note.substring(0, s.bodyStart())) + (body.isBlank() ? body : "\n" + body)
                    + note.substring(s.end());
        }
    }

    /** Text just before a section's heading line. */
    record InsertBeforeSection(String path, String section, String content) implements TextEdit {
        public String op() {
            return "insert_before_section";
        }

        public String edit(String note) {
            NoteSections.Section s = NoteText.section(note, section, path);
            return NoteText.endLine(note.substring(0, s.start())) + NoteText.block(content, true)
                    + note.substring(s.start());
        }
    }

    /** Text just after a section's end (before the next heading of the same or a higher level). */
    record InsertAfterSection(String path, String section, String content) implements TextEdit {
        public String op() {
            return "insert_after_section";
        }

        public String edit(String note) {
            NoteSections.Section s = NoteText.section(note, section, path);
            return NoteText.separated(note.substring(0, s.end())) + NoteText.block(content, s.end() < note.length())
                    + note.substring(s.end());
        }
    }

    /** Text at the end of the note. */
    record Append(String path, String content) implements TextEdit {
        public String op() {
            return "append";
        }

        public String edit(String note) {
            return NoteText.separated(note) + NoteText.block(content, false);
        }
    }

    /** Text at the start of the note's body, after its front matter. */
    record Prepend(String path, String content) implements TextEdit {
        public String op() {
            return "prepend";
        }

        public String edit(String note) {
            int body = NoteText.bodyStart(note);
            return note.substring(0, body) + NoteText.block(content, body < note.length())
                    + note.substring(body).replaceFirst("^(?:[ \\t]*\\n)+", "");
        }
    }

    /** An exact text that must occur exactly once, replaced. */
    record FindReplace(String path, String find, String replace) implements TextEdit {
        public String op() {
            return "find_replace";
        }

        public String edit(String note) {
            return NoteText.replaceOnce(note, find, replace, path);
        }
    }

    /** One top-level front matter field set to a YAML value (string, number, boolean, list, mapping). */
    record SetField(String path, String field, Object value) implements TextEdit {
        public String op() {
            return "set_front_matter";
        }

        public String edit(String note) {
            return NoteText.frontMatter(() -> FrontMatterFields.set(note, field, value), path);
        }
    }

    /** One top-level front matter field removed. */
    record RemoveField(String path, String field) implements TextEdit {
        public String op() {
            return "remove_front_matter";
        }

        public String edit(String note) {
            return NoteText.frontMatter(() -> FrontMatterFields.remove(note, field), path);
        }
    }

    /** A note moved or renamed; the links to it in the notes the editor may change are rewritten in the same draft. */
    record Move(String path, String to) implements NoteOperation {
        public String op() {
            return "move";
        }

        @Override
        public List<String> alsoWrites() {
            return List.of(to);
        }
    }

    /** A note deleted; the notes that still link to it are listed in the plan. */
    record Delete(String path) implements NoteOperation {
        public String op() {
            return "delete";
        }
    }
}
