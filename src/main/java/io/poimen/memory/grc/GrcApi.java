package io.poimen.memory.grc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.config.GitProperties;
import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.Action;
import io.poimen.memory.security.OidcAccessChecks;
import io.poimen.memory.security.VaultResource;
import io.poimen.memory.vault.PolicyFileNames;
import io.poimen.memory.security.Caller;
import io.poimen.memory.security.CallerResolver;
import io.poimen.memory.security.ExchangeSecurity;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.security.PathMentions;
import io.poimen.memory.security.ReadAccess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.Header;

/** The HTTP side of the edit flow: accept and store a draft, answer its outcome, report pull request status. */
public class GrcApi {
    private final DraftStore drafts;
    private final ForgejoClient forgejo;
    private final ForgejoProperties forgejoSettings;
    private final GitProperties git;
    private final Path vault;
    private final CallerResolver callers;
    private final AccessChecks access;
    private final ObjectMapper json;
    private final Clock clock;
    private final Supplier<Set<String>> vaultPaths;

    public GrcApi(DraftStore drafts, ForgejoClient forgejo, ForgejoProperties forgejoSettings, GitProperties git,
                  Path vault, CallerResolver callers, AccessChecks access, ObjectMapper json, Clock clock,
                  Supplier<Set<String>> vaultPaths) {
        this.drafts = drafts;
        this.forgejo = forgejo;
        this.forgejoSettings = forgejoSettings;
        this.git = git;
        this.vault = vault;
        this.callers = callers;
        this.access = access;
        this.json = json;
        this.clock = clock;
        this.vaultPaths = vaultPaths;
    }

    /** Checks the request and the caller's write access, then stores the draft; returns its id. */
    public String accept(@Body byte[] body, Exchange exchange) {
        DraftRequest request = parse(body).validated();
        if (!forgejoSettings.configured() || !git.hasRemote()) {
            throw new ApiException(503, "grc_unavailable", "edits through review are not configured on this hub "
                    + "(poimen.forgejo.url, poimen.forgejo.owner, poimen.forgejo.repo, poimen.git.remote)");
        }
        Caller caller = callers.caller(exchange);
        if (PolicyFileNames.policyName(Path.of(request.documentPath()).getFileName().toString())) {
            throw ApiException.badRequest("document_path is named like an access policy file ("
                    + PolicyFileNames.POLICY_FILE + " or a near-miss of it), which is never a note: "
                    + request.documentPath());
        }
        access.requireWrite(caller, request.documentPath(), traceId(exchange));
        refuseCaseClash(request.documentPath(), new ReadAccess(access, caller, traceId(exchange)));
        if (unchanged(request)) {
            throw ApiException.unprocessable("content is identical to " + request.documentPath() + " in the vault");
        }
        Instant now = clock.instant();
        String email = caller.email() != null && !caller.email().isBlank() ? caller.email()
                : BranchNames.clean(caller.subject()) + "@" + git.noreplyDomain();
        String name = caller.name() != null && !caller.name().isBlank() ? caller.name() : caller.subject();
        String id = UUID.randomUUID().toString();
        Draft draft = new Draft(id, caller.subject(), name, email, request.documentPath(),
                request.content(), request.message(), BranchNames.of(caller, request.documentPath(), now, id),
                DraftStatus.PENDING, 0, null, null, null,
                now.plus(forgejoSettings.delivery().deliveringTimeout()), now, now);
        drafts.insert(draft);
        exchange.setProperty(DraftDelivery.DRAFT_ID, draft.id());
        exchange.setProperty(DraftDelivery.FIRST_ATTEMPT, true);
        return draft.id();
    }

    /** 201 with the pull request once delivered; 202 with the status while the retry is still working on it. */
    public Map<String, Object> answer(@ExchangeProperty(DraftDelivery.DRAFT_ID) String id, Exchange exchange) {
        Draft draft = drafts.find(id).orElseThrow(() -> ApiException.notFound("draft " + id + " not found"));
        Map<String, Object> body = new LinkedHashMap<>();
        if (draft.status() == DraftStatus.DELIVERED) {
            exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 201);
            body.put("branch", draft.branch());
            body.put("pr_url", draft.prUrl());
            body.put("pr_number", draft.prNumber());
            body.put("draft_id", draft.id());
        } else {
            exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 202);
            body.put("draft_id", draft.id());
            body.put("status", draft.status().json());
            body.put("branch", draft.branch());
            if (draft.lastError() != null) {
                body.put("last_error", draft.lastError());
            }
        }
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        return body;
    }

    /**
     * {@code GET /memory/grc/drafts/{id}}: the owner, or anyone who may write the note, sees the stored draft;
     * anyone else gets the 404 of an unknown id.
     */
    public Map<String, Object> draft(@Header("id") String id, Exchange exchange) {
        Caller caller = callers.caller(exchange);
        ApiException unknown = ApiException.notFound("draft " + id + " not found");
        Draft draft = drafts.find(id == null ? "" : id).orElseThrow(() -> unknown);
        boolean owner = draft.userSubject().equals(caller.subject());
        if (!owner) {
            // another's draft the caller may not write answers as a missing one
            try {
                access.requireWrite(caller, draft.documentPath(), traceId(exchange));
            } catch (ApiException e) {
                throw e.status() == 403 ? unknown : e;
            }
        }
        // the author's message and a delivery error may name notes this (other) caller may not read
        ReadAccess read = new ReadAccess(access, caller, traceId(exchange));
        UnaryOperator<String> shown = text -> owner ? text
                : PathMentions.withoutDenied(text, vaultPaths.get(), read::allowsIfNotePath);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("draft_id", draft.id());
        body.put("user", draft.userSubject());
        body.put("author_name", draft.authorName());
        body.put("author_email", draft.authorEmail());
        body.put("document_path", draft.documentPath());
        body.put("content", draft.content());
        body.put("message", shown.apply(draft.message()));
        body.put("branch", draft.branch());
        body.put("status", draft.status().json());
        body.put("attempts", draft.attempts());
        body.put("last_error", shown.apply(draft.lastError()));
        body.put("pr_number", draft.prNumber());
        body.put("pr_url", draft.prUrl());
        body.put("next_attempt_at", draft.nextAttemptAt() == null ? null : draft.nextAttemptAt().toString());
        body.put("created_at", draft.createdAt().toString());
        body.put("updated_at", draft.updatedAt().toString());
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        return body;
    }

    /**
     * {@code GET /memory/grc/status?pr=N}: open, merged or closed, and the review state, of a pull request this hub
     * opened (a stored draft) and only to a caller who may read the draft's note. Every other number, and a draft
     * the caller may not read, answers the same 404 without asking Forgejo.
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
        try {
            access.requireRead(caller, draft.documentPath(), traceId(exchange));
        } catch (ApiException e) {
            throw e.status() == 403 ? unknown : e;
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


    private DraftRequest parse(byte[] body) {
        JsonNode node;
        try {
            node = json.readTree(body == null ? new byte[0] : body);
        } catch (IOException e) {
            throw ApiException.badRequest("malformed JSON: " + (e instanceof JsonProcessingException j
                    ? j.getOriginalMessage() : e.getMessage()));
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("expected a JSON object {document_path, content, message}");
        }
        return new DraftRequest(text(node, "document_path"), text(node, "content"), text(node, "message"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ApiException.badRequest(field + " must be a string");
        }
        return v.asText();
    }

    /**
     * A path that differs only in case from an existing file or folder the caller may read would become a second
     * note on Linux and clash on case-insensitive checkouts (macOS, Windows): 409 naming it. A clash with something
     * the caller may not read is not refused: the answer would tell that it exists (the pull request's reviewer sees
     * both). A path under an existing file can never be written: 409 as well (the caller may write below the file's
     * folder, so may read the file).
     */
    private void refuseCaseClash(String documentPath, ReadAccess read) {
        Path dir = vault.normalize();
        for (String segment : documentPath.split("/")) {
            if (!Files.isDirectory(dir)) {
                if (Files.exists(dir)) {
                    String file = relative(dir);
                    if (!read.allowsIfNotePath(file)) {
                        throw OidcAccessChecks.denied(Action.WRITE, VaultResource.of(documentPath));
                    }
                    throw new ApiException(409, "path_under_file", "document_path " + documentPath
                            + " lies under the file " + file);
                }
                return;
            }
            List<Path> clashes;
            try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
                clashes = entries.filter(p -> !p.getFileName().toString().equals(segment)
                        && p.getFileName().toString().equalsIgnoreCase(segment)).sorted().toList();
            } catch (IOException e) {
                return;
            }
            for (Path clash : clashes) {
                String existing = relative(clash);
                if (read.allowsIfNotePath(Files.isDirectory(clash) ? existing + "/" : existing)) {
                    throw new ApiException(409, "case_clash", "document_path " + documentPath
                            + " differs only in case from the existing " + existing);
                }
            }
            dir = dir.resolve(segment);
        }
    }

    private String relative(Path p) {
        return vault.normalize().relativize(p).toString().replace('\\', '/');
    }

    private boolean unchanged(DraftRequest request) {
        Path file = vault.resolve(request.documentPath()).normalize();
        try {
            return file.startsWith(vault.normalize()) && Files.isRegularFile(file)
                    && Files.readString(file, StandardCharsets.UTF_8).equals(request.content());
        } catch (IOException e) {
            return false;
        }
    }

    /** The hub's own trace id, the response's {@code X-Trace-Id} (never a client-supplied header). */
    static String traceId(Exchange exchange) {
        return ExchangeSecurity.traceId(exchange);
    }
}
