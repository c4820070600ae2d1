package io.poimen.memory.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/**
 * What a client and its model are told about each MCP tool beyond its own description: a title, the MCP hints
 * ({@code readOnlyHint}, {@code destructiveHint}, {@code idempotentHint}, {@code openWorldHint}) and one sentence
 * on when to use it rather than another tool. One table, so every tool is described by the same rules:
 * <ul>
 *   <li>read-only: the tool changes nothing (reading, listing, following a draft);</li>
 *   <li>destructive: the call itself can overwrite or remove vault content. A proposal only adds a draft that a
 *   reviewer decides on, so proposing is not destructive; approving a draft is;</li>
 *   <li>idempotent: the same call again has no further effect (every read; not a proposal, which adds a draft
 *   each time);</li>
 *   <li>open world: never. Every tool works on the team's vault and its review, not on outside systems.</li>
 * </ul>
 * A tool without an entry here fails the server's start: every tool must say all of this.
 */
final class ToolGuide {
    record Entry(McpSchema.ToolAnnotations annotations, String whenToUse) {
        String title() {
            return annotations.title();
        }
    }

    private static final Map<String, Entry> TOOLS = Map.ofEntries(
            read("search_memory", "Search memory", "Use it first for a question when you do not know which note "
                    + "answers it; pass explain: true only to see why chunks ranked as they did."),
            read("read_note", "Read a note", "Use it when you know the note (its path from search_memory or "
                    + "build_context, a [[link]] name or alias, or a memory:// URL) and need all of it."),
            read("list_skills", "List skills", "Use it to find the team's how-to skills before a task, then "
                    + "read_note the skill's path."),
            read("build_context", "Note with its links", "Use it when you have one note and need the notes it "
                    + "links to and from within a token budget; for a question use search_memory."),
            read("recent_changes", "Recent changes", "Use it to catch up on what changed in the vault since a "
                    + "commit or a time, e.g. since your last session."),
            read("recent_activity", "Recent activity", "Use it to see which notes changed lately (\"last "
                    + "week\", \"2 days\") in a project or the vault; for commits since a point use recent_changes."),
            read("list_directory", "List a folder", "Use it to see what a folder holds before reading notes; for a "
                    + "question use search_memory."),
            read("draft_status", "Draft status", "Use it after proposing an edit to follow the draft to its "
                    + "pull request and review."),
            read("list_drafts", "List drafts", "Use it to find drafts you made or may review."),
            propose("propose_edit", "Propose an edit", "Use it to record what you learned or to fix a note; it "
                    + "never changes the vault directly."),
            propose("write_note", "Write a note", "Use it to create a note or replace all of one; for a change "
                    + "inside a note use edit_note."),
            propose("edit_note", "Edit inside a note", "Use it for a change inside a note without resending "
                    + "the whole note."),
            propose("move_note", "Move a note", "Use it to rename or move a note; the links to it change in the "
                    + "same draft."),
            propose("delete_note", "Delete a note", "Use it to propose removing a note; a reviewer decides."),
            entry("review_draft", "Review a draft", false, true, false, "Use it only when you are asked to "
                    + "approve or reject a draft; approving changes the vault."));

    private ToolGuide() {
    }

    /** The entry of {@code tool}; a tool without one is a programming error. */
    static Entry of(String tool) {
        Entry entry = TOOLS.get(tool);
        if (entry == null) {
            throw new IllegalStateException("MCP tool " + tool + " has no entry in ToolGuide: give it a title, "
                    + "its hints and when to use it");
        }
        return entry;
    }

    private static Map.Entry<String, Entry> read(String tool, String title, String whenToUse) {
        return entry(tool, title, true, false, true, whenToUse);
    }

    private static Map.Entry<String, Entry> propose(String tool, String title, String whenToUse) {
        return entry(tool, title, false, false, false, whenToUse);
    }

    private static Map.Entry<String, Entry> entry(String tool, String title, boolean readOnly, boolean destructive,
                                                  boolean idempotent, String whenToUse) {
        return Map.entry(tool, new Entry(new McpSchema.ToolAnnotations(title, readOnly, destructive, idempotent,
                false, null), whenToUse));
    }
}
