package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.cluster.HubProcess;
import io.poimen.memory.testsupport.ExampleVault;
import io.poimen.memory.testsupport.HugeBodies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The security test's request (item 1) against a hub in its own JVM with a 768 MB heap: an unsigned
 * 600 MB webhook body, with its length and chunked, once filled the heap (an OutOfMemoryError; once answered 200
 * with the body echoed back) and left exchanges in flight that held the shutdown for Camel's 45 s. Now each is a
 * 413 JSON answer before the body is read, every other endpoint does the same, and a body still arriving when the
 * hub is told to stop (SIGTERM) is answered 503 at its next bytes: the graceful shutdown completes and no exchange
 * is left in flight.
 */
class RequestBodiesHubProcessTest {
    static final long HUGE = 600L << 20;
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path DIR = Path.of("target/it-body-process/" + UUID.randomUUID()).toAbsolutePath();
    static HubProcess hub;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("poimen.data.dir", DIR.resolve("data").toString());
        // a copy: the hub makes a vault folder that is no git working copy one, and examples/ is the source tree
        ExampleVault.copyTo(DIR.resolve("vault"));
        p.put("poimen.vault.path", DIR.resolve("vault").toString());
        p.put("poimen.vault.ingest-on-startup", "false");
        p.put("poimen.routes-dir", Path.of("routes").toAbsolutePath().toString());
        p.put("poimen.policies.dir", Path.of("policies").toAbsolutePath().toString());
        p.put("camel.main.routes-reload-enabled", "false");
        p.put("poimen.webhook.secret", "process-webhook-secret");
        hub = HubProcess.start("hub", DIR, p, () -> "");
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> hub.ready() || !hub.alive());
        assertThat(hub.alive()).as(hub.logTail()).isTrue();
    }

    @AfterAll
    static void stop() throws Exception {
        if (hub != null && hub.alive()) {
            hub.kill();
        }
    }

    static Map<String, String> webhookHeaders() {
        return Map.of("Content-Type", "application/json", "X-Forgejo-Event", "push",
                "X-Forgejo-Delivery", UUID.randomUUID().toString());
    }

    @Test
    void hugeBodiesAreRefusedBeforeTheyFillTheHeapAndABodyArrivingAtShutdownDoesNotHoldIt() throws Exception {
        for (boolean chunked : new boolean[] {false, true}) {
            HugeBodies.Sent s = HugeBodies.send(hub.port, "POST", "/memory/webhooks/forgejo", webhookHeaders(), HUGE,
                    -1, chunked);
            assertThat(s.answer().status()).as("webhook, chunked " + chunked + ": " + s.answer().text())
                    .isEqualTo(413);
            assertThat(JSON.readTree(s.answer().body()).path("error").asText()).isEqualTo("payload_too_large");
            assertThat(s.bodyBytesSent()).as("bytes the hub let in").isLessThan(32L << 20);
        }
        for (HugeBodies.BodyEndpoint e : HugeBodies.bodyEndpoints()) {
            HugeBodies.Sent s = HugeBodies.send(hub.port, e.method(), e.path(), e.headers(), HUGE, -1, true);
            assertThat(s.answer().status()).as(e.path() + ": " + s.answer().text()).isEqualTo(413);
            assertThat(s.bodyBytesSent()).as(e.path()).isLessThan(32L << 20);
        }
        assertThat(hub.ready()).as("the hub goes on answering").isTrue();

        // a slow client: 1 KB every 20 ms of a 600 MB chunked webhook body, in flight when the hub is told to stop
        AtomicLong sent = new AtomicLong();
        CompletableFuture<HugeBodies.Sent> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return HugeBodies.send(hub.port, "POST", "/memory/webhooks/forgejo", webhookHeaders(), HUGE, -1,
                        true, 1024, 20, sent);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> sent.get() >= 32 * 1024);
        hub.terminate();
        HugeBodies.Sent answered = slow.get(60, TimeUnit.SECONDS);
        assertThat(answered.answer().status()).as(answered.answer().text()).isEqualTo(503);
        assertThat(JSON.readTree(answered.answer().body()).path("error").asText()).isEqualTo("unavailable");
        await().atMost(Duration.ofSeconds(60)).until(() -> !hub.alive());

        String log = Files.readString(hub.log);
        assertThat(log).contains("Graceful shutdown complete").doesNotContain("Graceful shutdown aborted",
                "OutOfMemoryError");
        // Camel may wait a moment for a timer's exchange; never for one of a request this test sent
        assertThat(log.lines().filter(l -> l.contains("inflight and pending exchanges")))
                .noneMatch(l -> l.matches(".*(webhook|grc-draft|agent-event|admin-reindex|query).*"));
    }
}
