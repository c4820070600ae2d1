package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The documented meters move on the running hub: every access decision is counted with its reason, and a sync
 * that brings a change records the time from picked up to indexed, the lag gauge returning to 0.
 */
class MetricsWiringTest extends GrcTestSupport {
    @Autowired MeterRegistry registry;

    @Test
    void accessDecisionsAreCountedWithTheirReason() {
        double allowed = decisions("allow", "in_allowed_group");
        double denied = decisions("deny", "not_in_allowed_groups");
        assertThat(postJson("/memory/query", "{\"project\":\"poimen\",\"query\":\"node drain runbook\"}")
                .getStatusCode().value()).isEqualTo(200);
        assertThat(postJson("/memory/query", "{\"project\":\"ml-training\",\"query\":\"gpu node\"}")
                .getStatusCode().value()).isEqualTo(403);
        assertThat(decisions("allow", "in_allowed_group")).isGreaterThan(allowed);
        assertThat(decisions("deny", "not_in_allowed_groups")).isGreaterThan(denied);
    }

    @Test
    void aSyncThatBringsAChangeRecordsItsLag() throws Exception {
        long before = synced().count();
        String head = pushToMain("projects/poimen/metrics-wiring/" + UUID.randomUUID() + ".md",
                "# Lag\n\nThe tessellune note.\n", "Add a note");
        String body = pushPayload("refs/heads/main", "0".repeat(40), head);
        assertThat(webhook("push", UUID.randomUUID().toString(), body, signed(body)).getStatusCode().value())
                .isEqualTo(202);
        awaitSyncedTo(head);
        assertThat(synced().count()).isGreaterThan(before);
        assertThat(synced().max(java.util.concurrent.TimeUnit.MILLISECONDS)).isPositive();
        assertThat(registry.get("poimen.ingest.lag").gauge().value()).isZero();
    }

    private Timer synced() {
        Timer t = registry.find("poimen.ingest.synced").timer();
        return t != null ? t : Timer.builder("poimen.ingest.synced").register(registry);
    }

    private double decisions(String decision, String reason) {
        return registry.find("poimen.rbac.decisions").tags("decision", decision, "reason", reason).counters()
                .stream().mapToDouble(c -> c.count()).sum();
    }
}
