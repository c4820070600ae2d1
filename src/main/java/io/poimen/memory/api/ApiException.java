package io.poimen.memory.api;

/** An error with its HTTP status and a stable code; the API answers it as {@code {"error", "message"}}. */
public class ApiException extends RuntimeException {
    private final int status;
    private final String code;
    private final String reason;

    public ApiException(int status, String code, String message) {
        this(status, code, message, null);
    }

    /** @param reason machine-readable detail added to the body as {@code "reason"} (e.g. an access decision's) */
    public ApiException(int status, String code, String message, String reason) {
        super(message);
        this.status = status;
        this.code = code;
        this.reason = reason;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, "bad_request", message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, "not_found", message);
    }

    public static ApiException unprocessable(String message) {
        return new ApiException(422, "unprocessable", message);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** Null when the error has no reason code. */
    public String reason() {
        return reason;
    }
}
