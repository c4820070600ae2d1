package io.poimen.memory.index;

import java.util.Optional;

/**
 * Which embedding model a vector store's vectors come from, and the rule both stores apply: vectors of one model
 * are never searched with a query of another, nor mixed with vectors of another. A store records the model with
 * its first write (or with {@link VectorIndex#clearForModel()}); a store that holds vectors but no record was
 * written before models were recorded, when the hub always embedded with {@link #BEFORE_RECORDS}.
 *
 * @param configured the model this hub embeds queries and chunks with
 * @param recorded   the model recorded in the store, if any
 */
public record VectorModel(String configured, Optional<String> recorded) {
    /** The only model hubs embedded with before vector stores recorded theirs. */
    public static final String BEFORE_RECORDS = "all-minilm-l6-v2-q";

    public VectorModel {
        if (configured == null || configured.isBlank()) {
            throw new IllegalArgumentException("the configured embedding model is required");
        }
        recorded = recorded == null ? Optional.empty() : recorded;
    }

    /** True when the store's vectors may be searched with, and joined by, vectors of the configured model. */
    public boolean matches(long storedVectors) {
        return builtBy(storedVectors).map(configured::equals).orElse(true);
    }

    /** The model the stored vectors come from; empty for an empty store without a record. */
    public Optional<String> builtBy(long storedVectors) {
        return recorded.isPresent() || storedVectors == 0 ? recorded : Optional.of(BEFORE_RECORDS);
    }

    /** @throws IllegalStateException naming both models when {@link #matches} is false */
    public void check(String store, long storedVectors) {
        if (!matches(storedVectors)) {
            throw new IllegalStateException("the " + store + " vectors were built by "
                    + builtBy(storedVectors).orElseThrow() + " but this hub embeds with " + configured
                    + ": they are re-embedded at start-up and not used until then");
        }
    }
}
