package io.poimen.memory.grc;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.ReadAccess;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.Header;

/** The HTTP side of the edit flow: accept and store a draft, answer its outcome, report pull request status. */
public class GrcApi {
    private final DraftStore drafts;
    private final DraftSubmission submission;
    private final ForgejoClient forgejo;
    private final CallerResolver callers;
    private final Access access;
    private final ObjectMapper json;

    public GrcApi(DraftStore drafts, DraftSubmission submission, ForgejoClient forgejo, CallerResolver callers,
                  Access access, ObjectMapper json) {
        this.drafts = drafts;
        this.submission = submission;
        this.forgejo = forgejo;
        this.callers = callers;
        this.access = access;
        this.json = json;
    }

    /**
     * Reads the request ({@link DraftInput}) and submits it ({@link DraftSubmission}). A stored draft's id goes into
     * {@link DraftDelivery#DRAFT_ID} (a Forgejo draft is delivered next); a conflict with the vault as it is now is
     * the answer itself: 409 {@code edit_conflict} with each note's current version and conflict; a dry run's answer
     * is its diff (nothing stored).
     */
    public Map<String, Object> accept(@Body byte[] body, Exchange exchange) {
        DraftInput input = DraftInput.parse(json, body);
        Caller caller = callers.caller(exchange);
        DraftSubmission.Outcome outcome = submission.submit(caller, traceId(exchange), input);
        if (outcome.preview() != null) {
            return preview(outcome.preview(), exchange);
        }
        if (outcome.draft() == null) {
            exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 409);
            exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("error", "edit_conflict");
            answer.put("message", "the vault changed since these notes were read, where the draft changes them: "
                    + String.join(", ", outcome.conflicts().keySet()) + "; read them again (current_version) and "
                    + "redo the edit. No draft was made");
            answer.put("conflicts", outcome.conflicts().entrySet().stream().map(e -> {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("path", e.getKey());
                c.put("current_version", e.getValue().currentVersion());
                c.put("reason", e.getValue().reason());
                c.put("text", e.getValue().text());
                return c;
            }).toList());
            return answer;
        }
        Draft draft = outcome.draft();
        exchange.setProperty(DraftDelivery.DRAFT_ID, draft.id());
        exchange.setProperty(DraftDelivery.FIRST_ATTEMPT, draft.edit().host() == ReviewHost.FORGEJO);
        return null;
    }

    /** A dry run's answer, 200: what the draft would change, as its diff, with nothing stored. */
    private static Map<String, Object> preview(DraftChanges changes, Exchange exchange) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("dry_run", true);
        body.put("paths", List.copyOf(changes.touched()));
        body.put("base_versions", changes.baseVersions());
        body.put("diff", DraftDiffs.json(changes, path -> java.util.Optional.empty()));
        body.put("moves", changes.moves());
        body.put("rewrites", changes.rewrites());
        body.put("linked_from", changes.linkedFrom());
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        return body;
    }

    /**
     * 201 with the draft once it is waiting for review (its pull request once delivered to Forgejo); 202 with the
     * status while delivery to Forgejo is still being retried.
     */
    public Map<String, Object> answer(@ExchangeProperty(DraftDelivery.DRAFT_ID) String id, Exchange exchange) {
        Draft draft = drafts.find(id).orElseThrow(() -> ApiException.notFound("draft " + id + " not found"));
        Map<String, Object> body = new LinkedHashMap<>();
        boolean waiting = draft.status() == DraftStatus.OPEN || draft.status() == DraftStatus.CONFLICT;
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, waiting ? 201 : 202);
        body.put("draft_id", draft.id());
        body.put("status", draft.status().json());
        body.put("review_host", draft.edit().host().json());
        body.put("branch", draft.branch());
        body.put("paths", List.copyOf(draft.edit().changes().touched()));
        body.put("base_versions", draft.edit().changes().baseVersions());
        if (draft.prNumber() != null) {
            body.put("pr_url", draft.prUrl());
            body.put("pr_number", draft.prNumber());
        }
        if (!draft.edit().changes().moves().isEmpty()) {
            body.put("moves", draft.edit().changes().moves());
            body.put("rewrites", draft.edit().changes().rewrites());
        }
        if (!draft.edit().changes().linkedFrom().isEmpty()) {
            body.put("linked_from", draft.edit().changes().linkedFrom());
        }
        if (draft.lastError() != null) {
            body.put("last_error", draft.lastError());
        }
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        return body;
    }

    /**
     * {@code GET /memory/grc/status?pr=N}: open, merged or closed, and the review state, of a pull request this hub
     * opened (a stored draft) and only to a caller who may read every note of the draft. Every other number, and a
     * draft the caller may not read, answers the same 404 without asking Forgejo.
     */
    public Map<String, Object> status(@Header("pr") String pr, Exchange exchange) {
        Caller caller = callers.caller(exchange);
        int number;
        try {
            number = Integer.parseInt(pr == null ? "" : pr.trim());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("pr must be a pull request number, got: " + pr);
        }
        ApiException unknown = ApiException.notFound("pull request #" + number + " not found");
        Draft draft = drafts.findByPullRequest(number).orElseThrow(() -> unknown);
        ReadAccess read = access.reads(caller, traceId(exchange));
        if (!draft.edit().changes().touched().stream().allMatch(read::allowsIfNotePath)) {
            throw unknown;
        }
        PullRequest pull;
        String review;
        try {
            pull = forgejo.get(number);
            review = ReviewState.of(forgejo.reviews(number));
        } catch (ForgejoUnavailableException e) {
            throw new ApiException(503, "forgejo_unavailable", e.getMessage());
        } catch (ForgejoRequestException e) {
            throw e.status() == 404 ? unknown
                    : new ApiException(502, "forgejo_error", e.getMessage());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("pr_number", number);
        body.put("state", pull.merged() ? "merged" : "closed".equals(pull.state()) ? "closed" : "open");
        body.put("merged", pull.merged());
        body.put("review_state", review);
        body.put("pr_url", pull.htmlUrl());
        body.put("branch", pull.headRef());
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        return body;
    }

    /** The hub's own trace id, the response's {@code X-Trace-Id} (never a client-supplied header). */
    static String traceId(Exchange exchange) {
        return ExchangeSecurity.traceId(exchange);
    }
}
