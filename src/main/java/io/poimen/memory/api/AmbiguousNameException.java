package io.poimen.memory.api;

import java.util.List;

/**
 * A note name that means several notes the caller may read: 409 {@code ambiguous}, the body adding
 * {@code "candidates"} (their paths, sorted) for the caller to read one by its path.
 */
public class AmbiguousNameException extends ApiException {
    private static final int SHOWN = 10;
    private final List<String> candidates;

    public AmbiguousNameException(String name, List<String> candidates) {
        super(409, "ambiguous", name + " names " + candidates.size() + " notes: "
                + String.join(", ", candidates.subList(0, Math.min(SHOWN, candidates.size())))
                + (candidates.size() > SHOWN ? ", …" : "") + "; read one by its path");
        this.candidates = List.copyOf(candidates);
    }

    public List<String> candidates() {
        return candidates;
    }
}
