package io.poimen.memory.grc;

/** Forgejo refused a request (4xx other than 429). */
public class ForgejoRequestException extends RuntimeException {
    private final int status;

    public ForgejoRequestException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
