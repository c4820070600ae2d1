package io.poimen.memory.grc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.cluster.Leadership;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.policy.PathMentions;
import io.poimen.memory.security.ReadAccess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.Header;

/**
 * Drafts as reviewers see them ({@code GET /memory/grc/drafts}, {@code GET /memory/grc/drafts/{id}}) and the review
 * itself ({@code POST /memory/grc/drafts/{id}/approve|reject}).
 *
 * <p>Who sees a draft: its author; and a caller who may read every note it touches and write at least one of them.
 * Anyone else gets the answer of an unknown draft id (404), whether it exists or not. Who may approve: a caller who
 * may write every note it touches (403 with the reason otherwise: they may read them), and not its author unless
 * {@code self_approval} allows it. Who may reject: the author (a withdrawal) or a caller who may approve, with a
 * comment. A draft is decided once.
 */
public class DraftReviews {
    /** Exchange property: true when this replica merges the approved draft now (it is the writer). */
    public static final String MERGE_NOW = "grcMergeNow";
    /** Exchange property: true when this replica (the writer) deletes the rejected draft's branch now. */
    public static final String PRUNE_NOW = "grcPruneNow";
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 200;
    static final int MAX_COMMENT = 4000;

    private final DraftStore drafts;
    private final CallerResolver callers;
    private final Access access;
    private final Leadership leadership;
    private final Predicate<Caller> maySelfApprove;
    private final Path vault;
    private final ObjectMapper json;
    private final Clock clock;
    private final Supplier<Set<String>> vaultPaths;

    public DraftReviews(DraftStore drafts, CallerResolver callers, Access access, Leadership leadership,
                        Predicate<Caller> maySelfApprove, Path vault, ObjectMapper json, Clock clock,
                        Supplier<Set<String>> vaultPaths) {
        this.drafts = drafts;
        this.callers = callers;
        this.access = access;
        this.leadership = leadership;
        this.maySelfApprove = maySelfApprove;
        this.vault = vault;
        this.json = json;
        this.clock = clock;
        this.vaultPaths = vaultPaths;
    }

    /** {@code GET /memory/grc/drafts?status=open&limit=20}: the drafts the caller may see, newest first. */
    public Map<String, Object> list(Exchange exchange, @Header("status") String status, @Header("limit") String limit) {
        Set<DraftStatus> statuses = statuses(status);
        int max = limit(limit);
        Viewer viewer = viewer(exchange);
        List<Map<String, Object>> out = new ArrayList<>();
        for (Draft d : drafts.list(statuses, MAX_LIMIT * 5)) {
            if (out.size() >= max) {
                break;
            }
            if (viewer.sees(d)) {
                out.add(view(d, viewer));
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("drafts", out);
        json(exchange);
        return body;
    }

    /** {@code GET /memory/grc/drafts/{id}}: the draft with its diff, or 404 for anyone who may not see it. */
    public Map<String, Object> draft(Exchange exchange, @Header("id") String id) {
        Viewer viewer = viewer(exchange);
        Map<String, Object> body = view(visible(id, viewer), viewer);
        json(exchange);
        return body;
    }

    /**
     * The decision step of {@code POST /memory/grc/drafts/{id}/{decision}}: checks, then records it. An approval is
     * merged by the writer: at once when this replica is the writer ({@link #MERGE_NOW}), else by the writer's timer.
     */
    public void decide(Exchange exchange, @Header("id") String id, @Header("decision") String decision,
                       @Body byte[] body) {
        Viewer viewer = viewer(exchange);
        if (!"approve".equals(decision) && !"reject".equals(decision)) {
            throw ApiException.notFound("no such review action: " + decision + " (approve or reject)");
        }
        Draft d = visible(id, viewer);
        String comment = comment(body);
        if (d.edit().host() != ReviewHost.LOCAL) {
            throw new ApiException(409, "review_on_forgejo", "this draft is reviewed on Forgejo"
                    + (d.prUrl() != null ? ": " + d.prUrl() : ", in its pull request"));
        }
        if (d.status() != DraftStatus.OPEN || d.review().mergeRequestedAt() != null) {
            throw notOpen(d);
        }
        boolean approve = decision.equals("approve");
        if (approve || !viewer.owns(d)) {
            for (String path : d.edit().changes().touched()) {
                access.requireWrite(viewer.caller, path, viewer.traceId);
            }
        }
        if (approve && viewer.owns(d) && !maySelfApprove.test(viewer.caller)) {
            throw new ApiException(403, "forbidden", "the author of a draft may not approve it (self_approval is "
                    + "false in policies/default.yaml): someone else who may write its notes reviews it",
                    "self_approval");
        }
        if (!approve && !viewer.owns(d) && (comment == null || comment.isBlank())) {
            throw ApiException.badRequest("a rejection needs a comment for the author: {\"comment\": \"...\"}");
        }
        boolean done = approve ? drafts.approve(id, viewer.caller.subject(), comment, clock.instant())
                : drafts.reject(id, viewer.caller.subject(), comment, clock.instant());
        if (!done) {
            throw notOpen(drafts.find(id).orElse(d));
        }
        exchange.setProperty(DraftDelivery.DRAFT_ID, id);
        boolean writer = leadership.isLeader() || leadership.acquireNow();
        exchange.setProperty(MERGE_NOW, approve && writer);
        exchange.setProperty(PRUNE_NOW, !approve && writer);
    }

    /** After the decision (and the merge, on the writer): the draft; 202 while the writer has yet to merge it. */
    public Map<String, Object> decided(Exchange exchange, @ExchangeProperty(DraftDelivery.DRAFT_ID) String id) {
        Viewer viewer = viewer(exchange);
        Draft d = drafts.find(id).orElseThrow(() -> ApiException.notFound("draft " + id + " not found"));
        Map<String, Object> body = view(d, viewer);
        json(exchange);
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE,
                d.status() == DraftStatus.OPEN && d.review().mergeRequestedAt() != null ? 202 : 200);
        return body;
    }

    private static ApiException notOpen(Draft d) {
        String state = d.status() == DraftStatus.OPEN ? "approved already and being merged" : d.status().json();
        return new ApiException(409, "draft_not_open", "the draft is " + state + "; only an open draft is reviewed");
    }

    private Draft visible(String id, Viewer viewer) {
        ApiException unknown = ApiException.notFound("draft " + id + " not found");
        Draft d = drafts.find(id == null ? "" : id).orElseThrow(() -> unknown);
        if (!viewer.sees(d)) {
            throw unknown;
        }
        return d;
    }

    /** The caller of one request, with its read decisions remembered. */
    final class Viewer {
        final Caller caller;
        final String traceId;
        final ReadAccess read;

        Viewer(Caller caller, String traceId) {
            this.caller = caller;
            this.traceId = traceId;
            this.read = access.reads(caller, traceId);
        }

        boolean owns(Draft d) {
            return d.userSubject().equals(caller.subject());
        }

        boolean sees(Draft d) {
            if (owns(d)) {
                return true;
            }
            Set<String> touched = d.edit().changes().touched();
            return touched.stream().allMatch(read::allowsIfNotePath) && touched.stream().anyMatch(this::mayWrite);
        }

        boolean mayWrite(String path) {
            return DraftSubmission.mayWrite(access, caller, path, traceId);
        }

        boolean mayApprove(Draft d) {
            return d.edit().host() == ReviewHost.LOCAL && d.status() == DraftStatus.OPEN
                    && d.review().mergeRequestedAt() == null
                    && (!owns(d) || maySelfApprove.test(caller))
                    && d.edit().changes().touched().stream().allMatch(this::mayWrite);
        }
    }

    private Viewer viewer(Exchange exchange) {
        return new Viewer(callers.caller(exchange), ExchangeSecurity.traceId(exchange));
    }

    /** The draft as {@code viewer} may see it: free text naming notes they may not read is hidden, unless theirs. */
    Map<String, Object> view(Draft d, Viewer viewer) {
        boolean owner = viewer.owns(d);
        UnaryOperator<String> shown = text -> owner || text == null ? text
                : PathMentions.withoutDenied(text, vaultPaths.get(), viewer.read::allowsIfNotePath);
        DraftChanges c = d.edit().changes();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("draft_id", d.id());
        body.put("user", d.userSubject());
        body.put("author_name", d.authorName());
        body.put("author_email", d.authorEmail());
        body.put("document_path", d.documentPath());
        body.put("paths", List.copyOf(c.touched()));
        body.put("content", d.content());
        body.put("message", shown.apply(d.message()));
        body.put("review_host", d.edit().host().json());
        body.put("branch", d.branch());
        body.put("status", d.status().json());
        body.put("attempts", d.attempts());
        body.put("last_error", shown.apply(d.lastError()));
        body.put("pr_number", d.prNumber());
        body.put("pr_url", d.prUrl());
        body.put("next_attempt_at", d.nextAttemptAt() == null ? null : d.nextAttemptAt().toString());
        body.put("created_at", d.createdAt().toString());
        body.put("updated_at", d.updatedAt().toString());
        body.put("operations", operations(d.edit().operations()));
        body.put("base_versions", c.baseVersions());
        body.put("base_commit", d.edit().baseCommit());
        body.put("diff", DraftDiffs.json(c, this::current));
        body.put("moves", c.moves());
        body.put("rewrites", c.rewrites().stream().map(r -> Map.of("path", r.path(), "before", r.before(),
                "after", r.after())).toList());
        Map<String, List<String>> linked = new LinkedHashMap<>();
        c.linkedFrom().forEach((p, from) -> linked.put(p, from.stream().filter(viewer.read::allowsIfNotePath)
                .toList()));
        body.put("linked_from", linked);
        body.put("conflicts", d.edit().conflicts().entrySet().stream().map(e -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", e.getKey());
            m.put("current_version", e.getValue().currentVersion());
            m.put("reason", e.getValue().reason());
            m.put("text", e.getValue().text());
            return m;
        }).toList());
        Map<String, Object> review = new LinkedHashMap<>();
        review.put("reviewer", d.review().reviewer());
        review.put("comment", shown.apply(d.review().comment()));
        review.put("decided_at", d.review().decidedAt() == null ? null : d.review().decidedAt().toString());
        review.put("merge_requested_at", d.review().mergeRequestedAt() == null ? null
                : d.review().mergeRequestedAt().toString());
        review.put("merge_commit", d.review().mergeCommit());
        body.put("review", review);
        body.put("may_approve", viewer.mayApprove(d));
        body.put("may_reject", d.edit().host() == ReviewHost.LOCAL && d.status() == DraftStatus.OPEN
                && d.review().mergeRequestedAt() == null
                && (owner || d.edit().changes().touched().stream().allMatch(viewer::mayWrite)));
        return body;
    }

    /** The note in the vault folder now: the base shown for a draft of the first version, whose base is unknown. */
    private Optional<String> current(String path) {
        Path file = vault.resolve(path).normalize();
        try {
            return file.startsWith(vault) && Files.isRegularFile(file)
                    ? Optional.of(Files.readString(file, StandardCharsets.UTF_8)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private JsonNode operations(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    private String comment(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        JsonNode node;
        try {
            node = json.readTree(body);
        } catch (IOException e) {
            throw ApiException.badRequest("malformed JSON: expected {\"comment\": \"...\"}");
        }
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (!node.isObject()) {
            throw ApiException.badRequest("expected a JSON object {\"comment\": \"...\"}");
        }
        JsonNode c = node.get("comment");
        if (c == null || c.isNull()) {
            return null;
        }
        if (!c.isTextual()) {
            throw ApiException.badRequest("comment must be a string");
        }
        if (c.asText().length() > MAX_COMMENT) {
            throw ApiException.badRequest("comment takes at most " + MAX_COMMENT + " characters");
        }
        return c.asText().strip();
    }

    private static Set<DraftStatus> statuses(String status) {
        if (status == null || status.isBlank()) {
            return EnumSet.of(DraftStatus.OPEN);
        }
        if (status.equals("all")) {
            return EnumSet.allOf(DraftStatus.class);
        }
        try {
            DraftStatus s = DraftStatus.valueOf(status.trim().toUpperCase(java.util.Locale.ROOT));
            return EnumSet.of(s);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("status must be one of open, conflict, merged, rejected, pending, "
                    + "delivering, delivery_failed or all, got: " + status);
        }
    }

    private static int limit(String limit) {
        if (limit == null || limit.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            int n = Integer.parseInt(limit.trim());
            if (n >= 1 && n <= MAX_LIMIT) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest("limit must be a number from 1 to " + MAX_LIMIT + ", got: " + limit);
    }

    private static void json(Exchange exchange) {
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
    }
}
