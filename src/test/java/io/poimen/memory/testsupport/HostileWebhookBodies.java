package io.poimen.memory.testsupport;

import java.util.List;
import java.util.Random;

/**
 * Generated webhook bodies for a fuzz that gets past the signature (the test signs each with the hub's secret), so
 * Forgejo's payload parser and the event choice see them: Forgejo-shaped push and pull request payloads with a field
 * of another JSON type, missing, huge, holding control characters or a path, nested deep, cut short, with a
 * duplicate key or trailing data, and bodies that are no JSON object at all; under the events Forgejo sends and
 * made-up ones. Seeded: a failure names its seed and index.
 */
public final class HostileWebhookBodies {
    public record Delivery(String event, String body) {
    }

    static final List<String> EVENTS = List.of("push", "pull_request", "pull_request_sync", "create", "delete",
            "issues", "release", "PUSH", "pull-request", "x".repeat(64));
    static final List<String> FIELDS = List.of("ref", "before", "after", "action", "number", "pull_request",
            "merged", "merge_commit_sha", "head", "repository", "commits");

    private final Random random;

    public HostileWebhookBodies(long seed) {
        this.random = new Random(seed);
    }

    public Delivery next() {
        String event = EVENTS.get(random.nextInt(EVENTS.size()));
        String base = random.nextBoolean() ? push() : pullRequest();
        return new Delivery(event, switch (random.nextInt(9)) {
            case 0 -> base.replaceFirst("\"" + field() + "\":", "\"" + field() + "\":" + value() + ",\"_x\":");
            case 1 -> base.replaceFirst("\"" + field() + "\":(\"[^\"]*\"|[-0-9a-z.]+)", "\"_gone\":0");
            case 2 -> base.replaceFirst("\"ref\":\"[^\"]*\"", "\"ref\":" + value());
            case 3 -> base.replaceFirst("\"after\":\"[^\"]*\"", "\"after\":" + value());
            case 4 -> base.substring(0, random.nextInt(base.length()));
            case 5 -> base.replaceFirst("\\{", "{\"ref\":\"refs/heads/other\",");
            case 6 -> base + List.of("x", "}", " {}", "\u0000", "[]").get(random.nextInt(5));
            case 7 -> "[".repeat(500 + random.nextInt(2000)) + "]".repeat(random.nextInt(3));
            default -> List.of("", "null", "[]", "42", "\"push\"", "{}", "{\"pull_request\":null}",
                    "{\"ref\":[],\"after\":{}}", "not json", "\uFEFF{}").get(random.nextInt(10));
        });
    }

    private String field() {
        return FIELDS.get(random.nextInt(FIELDS.size()));
    }

    private String value() {
        return switch (random.nextInt(10)) {
            case 0 -> "null";
            case 1 -> "12345678901234567890123";
            case 2 -> "[\"refs/heads/main\"]";
            case 3 -> "{\"ref\":\"refs/heads/main\"}";
            case 4 -> "true";
            case 5 -> "\"" + "a".repeat(20_000 + random.nextInt(40_000)) + "\"";
            case 6 -> "\"refs/heads/main\\u0000\\n\\r\"";
            case 7 -> "\"../../etc/passwd\"";
            case 8 -> "\"" + hex(40) + "\"";
            default -> "-1.5e308";
        };
    }

    private String hex(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(Character.forDigit(random.nextInt(16), 16));
        }
        return b.toString();
    }

    private String push() {
        return "{\"ref\":\"refs/heads/" + (random.nextInt(4) == 0 ? "drafts" : "main") + "\",\"before\":\"" + hex(40)
                + "\",\"after\":\"" + hex(40) + "\",\"commits\":[{\"id\":\"" + hex(40)
                + "\",\"message\":\"edit\"}],\"repository\":{\"full_name\":\"team/vault\"}}";
    }

    private String pullRequest() {
        boolean merged = random.nextBoolean();
        return "{\"action\":\"" + (random.nextBoolean() ? "closed" : "opened") + "\",\"number\":" + random.nextInt(99)
                + ",\"pull_request\":{\"number\":7,\"merged\":" + merged + ",\"merge_commit_sha\":"
                + (merged ? "\"" + hex(40) + "\"" : "null") + ",\"base\":{\"ref\":\"main\"},\"head\":{\"ref\":"
                + "\"edit/rock/x\"}},\"repository\":{\"full_name\":\"team/vault\"}}";
    }
}
