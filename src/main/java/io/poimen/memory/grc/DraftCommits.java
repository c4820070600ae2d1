package io.poimen.memory.grc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheEditor;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Builds a draft's commit in a repository's object store, without a working tree: the first parent's tree with
 * notes written and removed (a move is a removal and a write of the same text, which git shows as a rename).
 */
final class DraftCommits {
    static final String TRAILER = "Poimen-Draft: ";

    private DraftCommits() {
    }

    /** The author's identity (the caller), and the hub as committer, both at {@code at}. */
    static PersonIdent author(Draft draft, Instant at) {
        return new PersonIdent(draft.authorName(), draft.authorEmail(), at, ZoneOffset.UTC);
    }

    static PersonIdent hub(String noreplyDomain, Instant at) {
        return new PersonIdent("poimen-memory", "poimen-memory@" + noreplyDomain, at, ZoneOffset.UTC);
    }

    /**
     * @param parents the commit whose tree is changed first, then any other parent (a merge's second); none for the
     *                first commit of an empty repository
     */
    static ObjectId commit(Repository repo, List<ObjectId> parents, Map<String, String> writes,
                           Collection<String> deletes, PersonIdent author, PersonIdent committer, String message)
            throws IOException {
        try (ObjectInserter inserter = repo.newObjectInserter(); ObjectReader reader = repo.newObjectReader();
             RevWalk walk = new RevWalk(repo)) {
            DirCache index = parents.isEmpty() ? DirCache.newInCore()
                    : DirCache.read(reader, walk.parseCommit(parents.get(0)).getTree());
            DirCacheEditor editor = index.editor();
            for (String path : deletes) {
                editor.add(new DirCacheEditor.DeletePath(path));
            }
            for (Map.Entry<String, String> w : writes.entrySet()) {
                ObjectId blob = inserter.insert(Constants.OBJ_BLOB, w.getValue().getBytes(StandardCharsets.UTF_8));
                editor.add(new DirCacheEditor.PathEdit(w.getKey()) {
                    @Override
                    public void apply(DirCacheEntry entry) {
                        entry.setFileMode(FileMode.REGULAR_FILE);
                        entry.setObjectId(blob);
                    }
                });
            }
            editor.finish();
            CommitBuilder commit = new CommitBuilder();
            commit.setTreeId(index.writeTree(inserter));
            commit.setParentIds(parents);
            commit.setAuthor(author);
            commit.setCommitter(committer);
            commit.setMessage(message);
            ObjectId id = inserter.insert(commit);
            inserter.flush();
            return id;
        }
    }

    /** True when the two commits have the same tree (a merge would change nothing). */
    static boolean sameTree(Repository repo, ObjectId a, ObjectId b) throws IOException {
        try (RevWalk walk = new RevWalk(repo)) {
            RevCommit ca = walk.parseCommit(a);
            RevCommit cb = walk.parseCommit(b);
            return ca.getTree().equals(cb.getTree());
        }
    }

    /** The id in a draft commit's {@link #TRAILER} line, or null when the message has none. */
    static String draftId(String message) {
        return message.lines().filter(l -> l.startsWith(TRAILER)).map(l -> l.substring(TRAILER.length()).strip())
                .filter(id -> !id.isEmpty()).reduce((first, last) -> last).orElse(null);
    }

    static String message(Draft draft) {
        return draft.message() + "\n\n" + TRAILER + draft.id() + "\n";
    }
}
