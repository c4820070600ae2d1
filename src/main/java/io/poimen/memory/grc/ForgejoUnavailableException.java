package io.poimen.memory.grc;

/** Forgejo did not answer, or answered 5xx/429: worth retrying later. */
public class ForgejoUnavailableException extends RuntimeException {
    public ForgejoUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
