package io.poimen.memory.config;

/**
 * A setting the hub cannot start with, said in one message that names the setting (and the file and key, for a
 * file it reads). Spring Boot reports it through {@link StartRefusedFailureAnalyzer}, the command line exits
 * without a stack trace.
 */
public class StartRefusedException extends IllegalArgumentException {
    private final String action;

    /** @param action what the operator can do about it, one sentence */
    public StartRefusedException(String message, String action) {
        this(message, action, null);
    }

    public StartRefusedException(String message, String action, Throwable cause) {
        super(message, cause);
        this.action = action;
    }

    public String action() {
        return action;
    }
}
