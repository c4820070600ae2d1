package io.poimen.memory.grc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The review state of a pull request from its reviews, oldest first: each reviewer's latest APPROVED,
 * REQUEST_CHANGES or COMMENT review counts (pending, dismissed and stale ones do not); any REQUEST_CHANGES wins,
 * then APPROVED, then COMMENT; no review gives {@code none}.
 */
public final class ReviewState {
    public static final String NONE = "none";

    private ReviewState() {
    }

    public static String of(JsonNode reviews) {
        Map<String, String> latest = new LinkedHashMap<>();
        for (JsonNode review : reviews) {
            String state = review.path("state").asText("");
            if (review.path("dismissed").asBoolean(false) || review.path("stale").asBoolean(false)) {
                continue;
            }
            if (!state.equals("APPROVED") && !state.equals("REQUEST_CHANGES") && !state.equals("COMMENT")) {
                continue;
            }
            String reviewer = review.path("user").path("login").asText("#" + review.path("id").asText());
            if (state.equals("COMMENT") && latest.containsKey(reviewer)) {
                continue; // a later comment does not withdraw an approval or a change request
            }
            latest.put(reviewer, state);
        }
        if (latest.containsValue("REQUEST_CHANGES")) {
            return "REQUEST_CHANGES";
        }
        if (latest.containsValue("APPROVED")) {
            return "APPROVED";
        }
        return latest.isEmpty() ? NONE : "COMMENT";
    }
}
