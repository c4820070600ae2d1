package io.poimen.memory.vault;

import java.nio.charset.StandardCharsets;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectInserter;

/**
 * The version of a note's text: git's blob id of its bytes (UTF-8), the id {@code git hash-object} gives the file.
 * A reader sends it back with an edit as the version the edit was made from; the same text always has the same
 * version, whether or not it is committed yet.
 */
public final class NoteVersion {
    private NoteVersion() {
    }

    public static String of(String text) {
        return of(text.getBytes(StandardCharsets.UTF_8));
    }

    public static String of(byte[] bytes) {
        try (ObjectInserter.Formatter f = new ObjectInserter.Formatter()) {
            return f.idFor(Constants.OBJ_BLOB, bytes).name();
        }
    }
}
