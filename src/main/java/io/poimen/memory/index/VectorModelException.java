package io.poimen.memory.index;

/**
 * A vector store refused a search or a write because its vectors come from another embedding model than the
 * configured one, or are being re-embedded ({@link VectorModel}). Not a fault of the embedding model: the
 * semantic branch is degraded with this reason and is tried again with the next query.
 */
public class VectorModelException extends IllegalStateException {
    public VectorModelException(String message) {
        super(message);
    }
}
