package io.poimen.memory.grc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.config.GitProperties;
import io.poimen.memory.config.WebhookProperties;
import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of {@code POST /memory/webhooks/forgejo} ({@code routes/webhook.camel.yaml}): {@link #verify} (503
 * without a secret, 401 for a missing or wrong signature, 400 for a body or headers Forgejo would not send), then
 * the route's idempotent consumer on the delivery id (a repeat answers 200 {@link #duplicate}), then a choice on
 * the event: a push to the vault branch or a pull request closed as merged asks for a sync ({@link #syncRequested})
 * once per commit ({@link #commitKey}: a signed body replayed under a new delivery id, or the push of a merge already
 * announced as a merged pull request, answers 200 {@link #duplicate}), every other event is acknowledged and
 * {@link #ignored}.
 */
public class ForgejoWebhooks {
    /** Exchange property: true when the route should send a sync request. */
    public static final String SYNC = "poimenWebhookSync";
    /** Exchange properties set by {@link #verify}: the event, the delivery id and the parsed payload. */
    public static final String EVENT = "poimenWebhookEvent";
    public static final String DELIVERY = "poimenWebhookDelivery";
    public static final String PAYLOAD = "poimenWebhookPayload";
    private static final Logger log = LoggerFactory.getLogger(ForgejoWebhooks.class);
    /** Column grc_drafts.reviewer. */
    private static final int MAX_LOGIN = 256;
    /** A git commit id: SHA-1 or SHA-256, as Forgejo writes them. */
    private static final Pattern COMMIT_ID = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");

    private final WebhookProperties settings;
    private final GitProperties git;
    private final VaultSync sync;
    private final ObjectMapper json;
    private final DraftStore drafts;
    private final Clock clock;

    public ForgejoWebhooks(WebhookProperties settings, GitProperties git, VaultSync sync, ObjectMapper json,
                           DraftStore drafts, Clock clock) {
        this.settings = settings;
        this.git = git;
        this.sync = sync;
        this.json = json;
        this.drafts = drafts;
        this.clock = clock;
    }

    /** Signature first, then the JSON body, then the event and delivery headers. */
    public void verify(@Body byte[] body, Exchange exchange) {
        byte[] raw = body == null ? new byte[0] : body;
        if (settings.secret() == null || settings.secret().isBlank()) {
            throw new ApiException(503, "webhook_unavailable", "poimen.webhook.secret is not set; webhooks are refused");
        }
        String signature = header(exchange, "X-Forgejo-Signature", "X-Gitea-Signature");
        if (signature == null) {
            throw new ApiException(401, "unauthorized", "missing X-Forgejo-Signature (or X-Gitea-Signature)");
        }
        if (!WebhookSignature.verify(settings.secret(), raw, signature)) {
            throw new ApiException(401, "unauthorized", "webhook signature does not match the body");
        }
        JsonNode payload;
        try {
            payload = json.readTree(raw);
        } catch (IOException e) {
            throw ApiException.badRequest("malformed JSON in webhook body");
        }
        if (payload == null || !payload.isObject()) {
            throw ApiException.badRequest("webhook body must be a JSON object");
        }
        String event = header(exchange, "X-Forgejo-Event", "X-Gitea-Event");
        String delivery = header(exchange, "X-Forgejo-Delivery", "X-Gitea-Delivery");
        if (event == null || delivery == null) {
            throw ApiException.badRequest("missing X-Forgejo-Event or X-Forgejo-Delivery header");
        }
        // the columns of webhook_deliveries (V4__grc.sql): a longer value would fail the insert, not the request
        if (event.length() > 64 || delivery.length() > 128 || !printable(event) || !printable(delivery)) {
            throw ApiException.badRequest("X-Forgejo-Event takes at most 64 and X-Forgejo-Delivery at most 128 "
                    + "printable characters");
        }
        exchange.setProperty(EVENT, event);
        exchange.setProperty(DELIVERY, delivery);
        exchange.setProperty(PAYLOAD, payload);
    }

    /** A push to the vault branch. */
    public boolean isVaultPush(@ExchangeProperty(EVENT) String event, @ExchangeProperty(PAYLOAD) JsonNode payload) {
        return "push".equals(event) && ("refs/heads/" + git.branch()).equals(payload.path("ref").asText());
    }

    /** A push to the vault branch or a pull request merged into it: the vault branch moved. */
    public boolean isVaultChange(@ExchangeProperty(EVENT) String event, @ExchangeProperty(PAYLOAD) JsonNode payload) {
        return isVaultPush(event, payload) || isMergedPullRequest(event, payload);
    }

    /**
     * The key a vault change is handled once under: the commit the vault branch moved to (a push's {@code after},
     * a merged pull request's {@code merge_commit_sha}), so the signature, which covers the body and not the
     * delivery header, cannot make one change ask for syncs again and again. A payload without a well-formed commit
     * id is bounded by its delivery id only.
     */
    public String commitKey(@ExchangeProperty(EVENT) String event, @ExchangeProperty(PAYLOAD) JsonNode payload,
                            @ExchangeProperty(DELIVERY) String delivery) {
        String commit = "push".equals(event) ? payload.path("after").asText("")
                : payload.path("pull_request").path("merge_commit_sha").asText("");
        return COMMIT_ID.matcher(commit).matches() ? "commit:" + commit : "delivery:" + delivery;
    }

    /** A pull request into the vault branch, closed as merged. */
    public boolean isMergedPullRequest(@ExchangeProperty(EVENT) String event,
                                       @ExchangeProperty(PAYLOAD) JsonNode payload) {
        JsonNode pr = payload.path("pull_request");
        return "pull_request".equals(event) && "closed".equals(payload.path("action").asText())
                && pr.path("merged").asBoolean(false)
                && git.branch().equals(pr.path("base").path("ref").asText(git.branch()));
    }

    /**
     * A pull request closed, merged or not: the draft it came from (if this hub opened it) is {@code merged} or
     * {@code rejected}, with who closed it.
     */
    public void pullRequestClosed(@ExchangeProperty(EVENT) String event, @ExchangeProperty(PAYLOAD) JsonNode payload) {
        if ("pull_request".equals(event) && "closed".equals(payload.path("action").asText())
                && payload.path("number").canConvertToInt()) {
            JsonNode pr = payload.path("pull_request");
            String by = pr.path("merged_by").path("login").asText(payload.path("sender").path("login").asText(null));
            by = by == null || by.length() <= MAX_LOGIN ? by : by.substring(0, MAX_LOGIN);
            drafts.pullRequestClosed(payload.path("number").asInt(), pr.path("merged").asBoolean(false), by,
                    clock.instant());
        }
    }

    /**
     * 200: this delivery id, or the commit this change moved the vault branch to, was handled before (by this or
     * another replica); nothing is done again.
     */
    public Map<String, Object> duplicate(Exchange exchange) {
        return answer(exchange, 200, "duplicate");
    }

    /** 202: an event that does not change the vault branch. */
    public Map<String, Object> ignored(Exchange exchange) {
        return answer(exchange, 202, "ignored");
    }

    /** 202: the vault branch moved; with git sync on, the route records a sync request for the writer. */
    public Map<String, Object> syncRequested(@ExchangeProperty(EVENT) String event,
                                             @ExchangeProperty(PAYLOAD) JsonNode payload, Exchange exchange) {
        String reason = "push".equals(event)
                ? "push to " + git.branch() + " (" + payload.path("after").asText("?") + ")"
                : "pull request #" + payload.path("number").asText("?") + " merged";
        if (!git.enabled()) {
            Map<String, Object> answer = answer(exchange, 202, "sync_disabled");
            answer.put("reason", reason);
            return answer;
        }
        sync.requested();
        exchange.setProperty(SYNC, true);
        Map<String, Object> answer = answer(exchange, 202, "sync_requested");
        answer.put("reason", reason);
        log.info("webhook {} ({}): {}; sync requested", answer.get("delivery"), event, reason);
        return answer;
    }

    private static Map<String, Object> answer(Exchange exchange, int status, String what) {
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("delivery", exchange.getProperty(DELIVERY, String.class));
        answer.put("event", exchange.getProperty(EVENT, String.class));
        answer.put("status", what);
        return answer;
    }

    private static boolean printable(String s) {
        return s.chars().noneMatch(Character::isISOControl);
    }

    private static String header(Exchange exchange, String name, String alternative) {
        String v = exchange.getMessage().getHeader(name, String.class);
        if (v == null || v.isBlank()) {
            v = exchange.getMessage().getHeader(alternative, String.class);
        }
        return v == null || v.isBlank() ? null : v.trim();
    }
}
