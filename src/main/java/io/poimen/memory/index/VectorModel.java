package io.poimen.memory.index;

import java.util.Optional;

/**
 * Which embedding model a vector store's vectors come from, and the rule both stores apply: vectors of one model
 * are never searched with a query of another, nor mixed with vectors of another. A store records the model with
 * its first write (or with {@link VectorIndex#clearForModel()}); a store that holds vectors but no record was
 * written before models were recorded, and counts as built by an unknown model.
 *
 * @param configured the model this hub embeds queries and chunks with
 * @param recorded   the model recorded in the store, if any
 */
public record VectorModel(String configured, Optional<String> recorded) {
    public VectorModel {
        if (configured == null || configured.isBlank()) {
            throw new IllegalArgumentException("the configured embedding model is required");
        }
        recorded = recorded == null ? Optional.empty() : recorded;
    }

    /** True when the store's vectors may be searched with, and joined by, vectors of the configured model. */
    public boolean matches(long storedVectors) {
        return recorded.map(configured::equals).orElse(storedVectors == 0);
    }

    /** @throws IllegalStateException naming both models when {@link #matches} is false */
    public void check(String store, long storedVectors) {
        if (!matches(storedVectors)) {
            throw new IllegalStateException("the " + store + " vectors were built by "
                    + recorded.orElse("an unrecorded model") + " but this hub embeds with " + configured
                    + ": they are re-embedded at start-up and not used until then");
        }
    }
}
