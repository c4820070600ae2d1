package io.poimen.memory.index.opensearch;

/** An OpenSearch call failed (node down, bad response, rejected documents); the message names the operation. */
public class OpenSearchIndexException extends RuntimeException {
    public OpenSearchIndexException(String message, Throwable cause) {
        super(message, cause);
    }

    public OpenSearchIndexException(String message) {
        super(message);
    }
}
