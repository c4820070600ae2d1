package io.poimen.memory.web;

/** An error with its HTTP status and a stable code; the API answers it as {@code {"error", "message"}}. */
public class ApiException extends RuntimeException {
    private final int status;
    private final String code;

    public ApiException(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
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
}
