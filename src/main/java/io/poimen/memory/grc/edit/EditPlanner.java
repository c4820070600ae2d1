package io.poimen.memory.grc.edit;

import io.poimen.memory.api.ApiException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Applies a draft's operations, in order, to a view of the vault and returns the {@link EditPlan}: the notes' new
 * texts, the deletions, moves and rewritten links. Nothing is written. A request that cannot apply is an
 * {@link ApiException}: 404 {@code not_found} for a note that is not there, 409 {@code note_exists} for a create or
 * a move onto a taken path, 422 for a section, text or front matter the operation cannot find or use.
 */
public final class EditPlanner {
    /** The vault as the planner reads it. */
    public interface Vault {
        /** Every vault file: notes and attachments. */
        Set<String> paths();

        /** A note's text; empty for a path that is not a note of the vault. */
        Optional<String> read(String path);

        /** Front matter aliases by note. */
        Map<String, List<String>> aliases();
    }

    /**
     * @param mayRewrite notes whose links to a moved note may be rewritten (the editor may write them); links in other
     *                   notes are left as they are
     * @param mayRead    notes the plan may name (a deleted note's {@code linkedFrom})
     */
    public EditPlan plan(Vault vault, List<NoteOperation> operations, Predicate<String> mayRewrite,
                         Predicate<String> mayRead) {
        State state = new State(vault);
        Map<String, String> moves = new LinkedHashMap<>();
        List<EditPlan.LinkRewrite> rewrites = new ArrayList<>();
        Map<String, List<String>> linkedFrom = new LinkedHashMap<>();
        for (NoteOperation op : operations) {
            String path = op.path();
            if (op instanceof NoteOperation.TextEdit edit) {
                state.put(path, edit.edit(state.require(path)));
            } else if (op instanceof NoteOperation.Create create) {
                if (state.exists(path)) {
                    throw new ApiException(409, "note_exists", path + " exists already; edit it instead");
                }
                state.put(path, NoteText.text(create.content()));
            } else if (op instanceof NoteOperation.Write write) {
                state.put(path, NoteText.text(write.content()));
            } else if (op instanceof NoteOperation.Move move) {
                state.require(path);
                if (state.exists(move.to())) {
                    throw new ApiException(409, "note_exists", move.to() + " exists already; move to a free path");
                }
                rewrites.addAll(LinkRewriter.move(state, path, move.to(), mayRewrite));
                moves.put(path, move.to());
            } else if (op instanceof NoteOperation.Delete) {
                state.require(path);
                linkedFrom.put(path, LinkRewriter.linkingTo(state, path).stream().filter(mayRead).toList());
                state.delete(path);
            }
        }
        return state.plan(moves, rewrites, linkedFrom);
    }

    /** The vault as the operations change it: an overlay of written and deleted notes over the original. */
    static final class State {
        final Vault vault;
        final Map<String, String> written = new LinkedHashMap<>();
        final Set<String> deleted = new LinkedHashSet<>();
        final Map<String, List<String>> aliases;

        State(Vault vault) {
            this.vault = vault;
            this.aliases = new LinkedHashMap<>(vault.aliases());
        }

        boolean exists(String path) {
            return written.containsKey(path) || (!deleted.contains(path) && vault.paths().contains(path));
        }

        Optional<String> read(String path) {
            if (written.containsKey(path)) {
                return Optional.of(written.get(path));
            }
            return deleted.contains(path) ? Optional.empty() : vault.read(path);
        }

        String require(String path) {
            return read(path).orElseThrow(() -> ApiException.notFound("no such note: " + path));
        }

        void put(String path, String content) {
            deleted.remove(path);
            written.put(path, content);
        }

        void delete(String path) {
            written.remove(path);
            deleted.add(path);
        }

        Set<String> paths() {
            Set<String> all = new TreeSet<>(vault.paths());
            all.removeAll(deleted);
            all.addAll(written.keySet());
            return all;
        }

        EditPlan plan(Map<String, String> moves, List<EditPlan.LinkRewrite> rewrites,
                      Map<String, List<String>> linkedFrom) {
            Map<String, String> writes = new LinkedHashMap<>();
            written.forEach((path, text) -> {
                if (!text.equals(vault.read(path).orElse(null))) {
                    writes.put(path, text);
                }
            });
            Set<String> deletes = new LinkedHashSet<>();
            deleted.stream().filter(vault.paths()::contains).forEach(deletes::add);
            if (writes.isEmpty() && deletes.isEmpty()) {
                throw ApiException.unprocessable("the draft changes nothing: every note would stay as it is");
            }
            return new EditPlan(writes, deletes, moves, rewrites, linkedFrom);
        }
    }
}
