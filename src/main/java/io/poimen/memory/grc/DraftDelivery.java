package io.poimen.memory.grc;

import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.config.GitProperties;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of the delivery route ({@code grc-deliver} in {@link DraftRoutes}): claim a stored draft, push its
 * branch, open (or find) its pull request, record the outcome. Every step can be repeated safely, which is what
 * makes Camel redelivery, the retry timer and a restart in the middle harmless: the push skips a branch the remote
 * already has, and the pull request step looks for an open pull request of the branch before it creates one.
 */
public class DraftDelivery {
    /** Exchange property holding the id of the draft being delivered. */
    public static final String DRAFT_ID = "grcDraftId";
    /** Exchange property set by the HTTP request that stored the draft: it may claim a never-tried draft. */
    public static final String FIRST_ATTEMPT = "grcFirstAttempt";
    /** Exchange property: what {@link #pushBranch} did ({@link DraftBranches.Pushed}). */
    public static final String PUSHED = "grcPushed";
    private static final Logger log = LoggerFactory.getLogger(DraftDelivery.class);
    private static final int RETRY_BATCH = 20;

    private final DraftStore drafts;
    private final DraftBranches branches;
    private final ForgejoClient forgejo;
    private final GitProperties git;
    private final ForgejoProperties.Delivery settings;
    private final Clock clock;

    public DraftDelivery(DraftStore drafts, DraftBranches branches, ForgejoClient forgejo, GitProperties git,
                         ForgejoProperties.Delivery settings, Clock clock) {
        this.drafts = drafts;
        this.branches = branches;
        this.forgejo = forgejo;
        this.git = git;
        this.settings = settings;
        this.clock = clock;
    }

    /** Drafts the retry timer should deliver now. */
    public List<String> due() {
        Instant now = clock.instant();
        return drafts.due(now, now.minus(settings.deliveringTimeout()), RETRY_BATCH);
    }

    /** True when this exchange may deliver the draft (nobody else is delivering it, and it is due). */
    public boolean claim(@ExchangeProperty(DRAFT_ID) String id, @ExchangeProperty(FIRST_ATTEMPT) Boolean first) {
        Instant now = clock.instant();
        boolean claimed = Boolean.TRUE.equals(first) ? drafts.claimNew(id, now)
                : drafts.claimDue(id, now, now.minus(settings.deliveringTimeout()));
        if (!claimed) {
            log.debug("draft {} is not due or is being delivered elsewhere", id);
        }
        return claimed;
    }

    /** Pushes the draft's branch ({@link DraftBranches#push}); what it did goes into {@link #PUSHED}. */
    public void pushBranch(@ExchangeProperty(DRAFT_ID) String id, Exchange exchange) {
        exchange.setProperty(PUSHED, branches.push(draft(id)));
    }

    /**
     * Opens (or finds) the pull request of the pushed branch: the draft is {@code open}, or {@code conflict} when it
     * cannot be merged into the vault branch as it is now (the pull request shows the conflict). A conflict without a
     * branch opens no pull request.
     */
    public void openPullRequest(@ExchangeProperty(DRAFT_ID) String id,
                                @ExchangeProperty(PUSHED) DraftBranches.Pushed pushed) {
        Draft draft = draft(id);
        if (!pushed.branch()) {
            drafts.conflicted(id, pushed.conflicts(), clock.instant());
            log.info("draft {} not delivered: conflict in {}", id, pushed.conflicts().keySet());
            return;
        }
        PullRequest pr = forgejo.findOpen(draft.branch()).orElseGet(() -> create(draft, pushed));
        drafts.delivered(id, pr.number(), pr.htmlUrl(), pushed.conflicts(), clock.instant());
        log.info("draft {} delivered: pull request #{} {} from {}{}", id, pr.number(), pr.htmlUrl(), draft.branch(),
                pushed.conflicts().isEmpty() ? "" : ", conflict in " + pushed.conflicts().keySet());
    }

    private PullRequest create(Draft draft, DraftBranches.Pushed pushed) {
        try {
            return forgejo.create(title(draft.message()), draft.branch(), git.branch(), body(draft, pushed));
        } catch (ForgejoRequestException e) {
            // 409: a pull request for this branch appeared meanwhile (another attempt); use it
            if (e.status() == 409) {
                return forgejo.findOpen(draft.branch()).orElseThrow(() -> e);
            }
            throw e;
        }
    }

    /** The dead-letter step: the attempt failed after its redeliveries; schedule the next one or give up. */
    public void failed(Exchange exchange) {
        String id = exchange.getProperty(DRAFT_ID, String.class);
        Throwable cause = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        String error = cause == null ? "delivery failed" : cause.getMessage() != null ? cause.getMessage()
                : cause.getClass().getSimpleName();
        Instant now = clock.instant();
        Draft draft = drafts.find(id).orElse(null);
        int attempts = draft == null ? 1 : draft.attempts();
        Instant next = attempts >= settings.maxAttempts() ? null : now.plus(settings.backoff(attempts));
        drafts.attemptFailed(id, error, next, now);
        if (next == null) {
            log.error("draft {} failed for good after {} attempts: {}", id, attempts, error);
        } else {
            log.warn("draft {} attempt {} failed, next attempt at {}: {}", id, attempts, next, error);
        }
    }

    static String title(String message) {
        String first = message.lines().findFirst().orElse(message).strip();
        return first.length() > 255 ? first.substring(0, 254) + "…" : first;
    }

    static String body(Draft draft, DraftBranches.Pushed pushed) {
        String notes = String.join("`, `", draft.edit().changes().touched());
        String conflict = pushed.conflicts().isEmpty() ? "" : "\n\n**Conflict:** " + String.join(", ",
                pushed.conflicts().keySet()) + " changed on the vault branch since this edit was made, on the same "
                + "lines; this branch holds the edit on the commit it was made from.";
        return "Edit of `" + notes + "` proposed by " + draft.authorName() + " <"
                + draft.authorEmail() + "> through poimen-memory.\n\n" + draft.message() + conflict + "\n\nDraft: "
                + draft.id() + "\n";
    }

    private Draft draft(String id) {
        return drafts.find(id).orElseThrow(() -> new IllegalStateException("draft " + id + " is not stored"));
    }
}
