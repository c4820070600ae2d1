package io.poimen.memory.grc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.web.ApiException;
import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /memory/webhooks/forgejo}: signature first (401), then JSON (400), then the delivery id (a repeat
 * answers 200 {@code duplicate} and does nothing), then the event. A push to the vault branch, or a pull request
 * closed as merged, asks for a sync; every other event is acknowledged and ignored.
 */
public class ForgejoWebhooks {
    /** Exchange property: true when the route should send a sync request. */
    public static final String SYNC = "poimenWebhookSync";
    private static final Logger log = LoggerFactory.getLogger(ForgejoWebhooks.class);

    private final WebhookProperties settings;
    private final GitProperties git;
    private final WebhookDeliveries deliveries;
    private final VaultSync sync;
    private final ObjectMapper json;
    private final Clock clock;

    public ForgejoWebhooks(WebhookProperties settings, GitProperties git, WebhookDeliveries deliveries,
                           VaultSync sync, ObjectMapper json, Clock clock) {
        this.settings = settings;
        this.git = git;
        this.deliveries = deliveries;
        this.sync = sync;
        this.json = json;
        this.clock = clock;
    }

    public Map<String, Object> receive(@Body byte[] body, Exchange exchange) {
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
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("delivery", delivery);
        answer.put("event", event);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        if (!deliveries.firstTime(delivery, event, clock.instant())) {
            exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 200);
            answer.put("status", "duplicate");
            return answer;
        }
        String reason = syncReason(event, payload);
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 202);
        if (reason == null) {
            answer.put("status", "ignored");
        } else if (!git.enabled()) {
            answer.put("status", "sync_disabled");
            answer.put("reason", reason);
        } else {
            sync.requested();
            exchange.setProperty(SYNC, true);
            answer.put("status", "sync_requested");
            answer.put("reason", reason);
            log.info("webhook {} ({}): {}; sync requested", delivery, event, reason);
        }
        return answer;
    }

    /** Why this event changes the vault branch, or null when it does not. */
    String syncReason(String event, JsonNode payload) {
        String vaultRef = "refs/heads/" + git.branch();
        if ("push".equals(event) && vaultRef.equals(payload.path("ref").asText())) {
            return "push to " + git.branch() + " (" + payload.path("after").asText("?") + ")";
        }
        if ("pull_request".equals(event) && "closed".equals(payload.path("action").asText())
                && payload.path("pull_request").path("merged").asBoolean(false)
                && git.branch().equals(payload.path("pull_request").path("base").path("ref").asText(git.branch()))) {
            return "pull request #" + payload.path("number").asText("?") + " merged";
        }
        return null;
    }

    private static String header(Exchange exchange, String name, String alternative) {
        String v = exchange.getMessage().getHeader(name, String.class);
        if (v == null || v.isBlank()) {
            v = exchange.getMessage().getHeader(alternative, String.class);
        }
        return v == null || v.isBlank() ? null : v.trim();
    }
}
