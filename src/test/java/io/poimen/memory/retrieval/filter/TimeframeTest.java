package io.poimen.memory.retrieval.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.api.ApiException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimeframeTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-05T12:00:00Z"), ZoneOffset.UTC);

    @Test
    void naturalTimeframesAndIsoDatesGiveTheStartOfTheWindow() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("7d", "2026-11-28T12:00:00Z"),
                Map.entry("12h", "2026-12-05T00:00:00Z"),
                Map.entry("2w", "2026-11-21T12:00:00Z"),
                Map.entry("2 weeks", "2026-11-21T12:00:00Z"),
                Map.entry("3 days ago", "2026-12-02T12:00:00Z"),
                Map.entry("last 3 days", "2026-12-02T12:00:00Z"),
                Map.entry("1 month", "2026-11-05T12:00:00Z"),
                Map.entry("Last Week", "2026-11-28T12:00:00Z"),
                Map.entry("last month", "2026-11-05T12:00:00Z"),
                Map.entry("last year", "2025-12-05T12:00:00Z"),
                Map.entry("today", "2026-12-05T00:00:00Z"),
                Map.entry("yesterday", "2026-12-04T00:00:00Z"),
                Map.entry("2026-11-01", "2026-11-01T00:00:00Z"),
                Map.entry("2026-11-01T08:30:00Z", "2026-11-01T08:30:00Z"),
                Map.entry("2026-11-01T08:30:00+02:00", "2026-11-01T06:30:00Z"));
        cases.forEach((text, since) -> assertThat(Timeframe.since(text, CLOCK)).as(text)
                .isEqualTo(Instant.parse(since)));
    }

    @Test
    void anythingElseIsA400() {
        for (String text : new String[] {"", "soon", "7", "d7", "last fortnight", "2026-13-01", "99999999d"}) {
            assertThatThrownBy(() -> Timeframe.since(text, CLOCK)).as(text)
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
        }
    }
}
