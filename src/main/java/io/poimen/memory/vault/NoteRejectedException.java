package io.poimen.memory.vault;

/** A file that cannot be read as a note (too large, binary, not UTF-8). Nothing of it is indexed. */
public class NoteRejectedException extends Exception {
    private final String path;
    private final String reason;

    public NoteRejectedException(String path, String reason) {
        super(path + ": " + reason);
        this.path = path;
        this.reason = reason;
    }

    public String path() {
        return path;
    }

    public String reason() {
        return reason;
    }
}
