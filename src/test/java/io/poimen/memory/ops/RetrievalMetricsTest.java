package io.poimen.memory.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RetrievalMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final RetrievalMetrics metrics = new RetrievalMetrics(registry, clock);

    @Test
    void recordsEachBranchTheFusionAndTheDegradedBranches() {
        Map<String, Double> timingsMs = Map.of("tfidf", 3.0, "lexical", 40.0, "fusion", 2.0, "total", 50.0);

        metrics.query(List.of("tfidf", "semantic", "lexical"), timingsMs, Set.of("lexical", "semantic"));

        assertThat(registry.get("poimen.query.branch").tags("branch", "tfidf", "outcome", "ok").timer()
                .totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3.0);
        assertThat(registry.get("poimen.query.branch").tags("branch", "lexical", "outcome", "failed").timer()
                .count()).isEqualTo(1);
        assertThat(registry.find("poimen.query.branch").tag("branch", "semantic").timer()).isNull();
        assertThat(registry.get("poimen.query.fusion").timer().totalTime(TimeUnit.MILLISECONDS)).isEqualTo(2.0);
        assertThat(metrics.degradedCounts()).containsEntry("lexical", 1.0).containsEntry("semantic", 1.0)
                .doesNotContainKey("tfidf");
    }

    @Test
    void countsAllowAndDenySeparately() {
        metrics.accessDecision("read", true);
        metrics.accessDecision("read", true);
        metrics.accessDecision("write", false);

        assertThat(registry.get("poimen.rbac.decisions").tags("action", "read", "decision", "allow").counter()
                .count()).isEqualTo(2);
        assertThat(registry.get("poimen.rbac.decisions").tags("action", "write", "decision", "deny").counter()
                .count()).isEqualTo(1);
    }

    @Test
    void tagsEachDecisionWithTheReasonCodeOnly() {
        metrics.accessDecision("read", false, "not_in_allowed_groups (projects/p/secret/_access.yaml)");
        metrics.accessDecision("write", false, "role_requirement_failed: need editor");
        metrics.accessDecision("read", true, null);

        assertThat(registry.get("poimen.rbac.decisions").tags("decision", "deny", "reason", "not_in_allowed_groups")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get("poimen.rbac.decisions").tags("action", "write", "reason", "role_requirement_failed")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get("poimen.rbac.decisions").tags("decision", "allow", "reason", "none").counter()
                .count()).isEqualTo(1);
    }

    @Test
    void aChangePickedUpBySyncLagsFromTheExchangeCreationUntilIndexed() {
        org.apache.camel.Exchange exchange = new org.apache.camel.support.DefaultExchange(
                new org.apache.camel.impl.DefaultCamelContext());
        clock.now = Instant.ofEpochMilli(exchange.getClock().getCreated()).plusSeconds(3);
        metrics.changePickedUp(exchange);
        assertThat(lag()).isEqualTo(3.0);
        clock.advance(Duration.ofSeconds(1));
        ingested(0.5, 1);
        assertThat(lag()).isZero();
        assertThat(registry.get("poimen.ingest.synced").timer().totalTime(TimeUnit.SECONDS)).isEqualTo(4.0);
    }

    @Test
    void lagGrowsFromTheFirstVaultChangeUntilAnIngestThatStartedAfterIt() {
        assertThat(lag()).isZero();
        metrics.vaultChanged();
        clock.advance(Duration.ofSeconds(5));
        metrics.vaultChanged();
        clock.advance(Duration.ofSeconds(5));
        assertThat(lag()).isEqualTo(10.0);

        // a run that started 12 s ago began before the change: the change may not be in it
        ingested(12.0, 100);
        assertThat(lag()).isEqualTo(10.0);

        clock.advance(Duration.ofSeconds(4));
        ingested(2.0, 40);
        assertThat(lag()).isZero();
        assertThat(registry.get("poimen.ingest.chunks").counter().count()).isEqualTo(140);
        assertThat(registry.get("poimen.ingest.throughput").gauge().value()).isEqualTo(20.0);
    }

    private double lag() {
        return registry.get("poimen.ingest.lag").gauge().value();
    }

    /** One run of 3 changed notes: what IngestPipeline passes from its IngestReport. */
    private void ingested(double seconds, int chunks) {
        metrics.ingested(3, chunks, seconds, chunks / seconds);
    }

    private static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
