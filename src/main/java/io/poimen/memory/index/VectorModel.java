package io.poimen.memory.index;

import java.util.Optional;

/**
 * Which embedding model a vector store's vectors come from, and the rule both stores apply: vectors of one model
 * are never searched with a query of another, nor mixed with vectors of another. A store records the model with
 * its first write, or with {@link VectorIndex#clearForModel()} at the start of a re-embedding, which leaves it
 * incomplete (not searched) until {@link VectorIndex#markModelComplete()}. A store that holds vectors but no
 * record was written before models were recorded, when every hub embedded with {@link #BEFORE_RECORDS}.
 *
 * @param configured the model this hub embeds queries and chunks with
 * @param recorded   the model recorded in the store, if any
 * @param complete   false while the store is being re-embedded with the recorded model
 */
public record VectorModel(String configured, Optional<String> recorded, boolean complete) {
    /** The only model hubs embedded with before vector stores recorded theirs. */
    public static final String BEFORE_RECORDS = "all-minilm-l6-v2-q";

    public VectorModel {
        if (configured == null || configured.isBlank()) {
            throw new IllegalArgumentException("the configured embedding model is required");
        }
        recorded = recorded == null ? Optional.empty() : recorded;
    }

    public VectorModel(String configured, Optional<String> recorded) {
        this(configured, recorded, true);
    }

    /** True when the store's vectors may be joined by vectors of the configured model. */
    public boolean matches(long storedVectors) {
        return builtBy(storedVectors).map(configured::equals).orElse(true);
    }

    /** True when the store may be searched with a query of the configured model: it matches and is complete. */
    public boolean searchable(long storedVectors) {
        return matches(storedVectors) && complete;
    }

    /** The model the stored vectors come from; empty for an empty store without a record. */
    public Optional<String> builtBy(long storedVectors) {
        return recorded.isPresent() || storedVectors == 0 ? recorded : Optional.of(BEFORE_RECORDS);
    }

    /** Before a write. @throws VectorModelException naming both models when {@link #matches} is false */
    public void checkWrite(String store, long storedVectors) {
        if (!matches(storedVectors)) {
            throw new VectorModelException("the " + store + " vectors were built by "
                    + builtBy(storedVectors).orElseThrow() + " but this hub embeds with " + configured
                    + ": they are re-embedded by the next ingest of the writer and not used until then");
        }
    }

    /** Before a search. @throws VectorModelException when {@link #searchable} is false, saying why */
    public void checkSearch(String store, long storedVectors) {
        checkWrite(store, storedVectors);
        if (!complete) {
            throw new VectorModelException("the " + store + " vectors are being re-embedded with " + configured
                    + ": semantic search resumes when that is done");
        }
    }
}
