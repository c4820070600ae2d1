package io.poimen.memory.retrieval.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.vault.TokenCounter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SessionContextsTest {
    final TokenCounter counter = new TokenCounter();

    static final class MovableClock extends Clock {
        Instant now = Instant.parse("2026-12-03T01:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void stillSelectedChunksKeepTheirPlaceAndNewOnesFollowByScore() {
        List<String> previous = List.of("a#0", "b#0", "c#0", "d#0");
        List<String> byScore = List.of("e#0", "c#0", "a#0", "f#0", "d#0");
        assertThat(SessionOrder.arrange(previous, byScore)).containsExactly("a#0", "c#0", "d#0", "e#0", "f#0");
        assertThat(SessionOrder.arrange(List.of(), byScore)).containsExactlyElementsOf(byScore);
        // a chunk no longer selected (e.g. no longer readable) never comes back from the previous context
        assertThat(SessionOrder.arrange(previous, List.of("b#0"))).containsExactly("b#0");
    }

    @Test
    void prefixReuseIsCountedOnTheTokensOfTheRenderedPrompt() {
        ContextPrompt.Part a = new ContextPrompt.Part("n.md#0", "n.md", "Pods restart when the probe fails.");
        ContextPrompt.Part b = new ContextPrompt.Part("n.md#1", "n.md", "Raise the memory limit.");
        ContextPrompt.Part c = new ContextPrompt.Part("m.md#0", "m.md", "Check the events first.");
        int[] first = counter.tokens(ContextPrompt.render(List.of(a, b)));
        int[] same = counter.tokens(ContextPrompt.render(List.of(a, b, c)));
        int[] other = counter.tokens(ContextPrompt.render(List.of(c, a, b)));
        assertThat(first.length).isEqualTo(counter.count(ContextPrompt.render(List.of(a, b))));
        assertThat(ContextPrompt.commonPrefix(first, same)).isEqualTo(first.length);
        // the chunk markup "<chunk id=\"" is common, the rest differs from the first id on
        assertThat(ContextPrompt.commonPrefix(first, other)).isLessThan(6);
        assertThat(ContextPrompt.render(List.of(a))).isEqualTo(
                "<chunk id=\"n.md#0\" path=\"n.md\">\nPods restart when the probe fails.\n</chunk>\n\n");
    }

    @Test
    void sessionsAreKeyedByCallerAndSessionAndBoundedBySizeTtlAndTokens() {
        MovableClock clock = new MovableClock();
        InMemorySessionContexts s = new InMemorySessionContexts(2, Duration.ofMinutes(30), 3, clock);
        SessionContexts.Key alice = new SessionContexts.Key("alice", "s1");
        SessionContexts.Key bob = new SessionContexts.Key("bob", "s1");
        s.remember(alice, null, List.of("a#0"), new int[] {1, 2, 3, 4, 5});
        assertThat(s.previous(bob)).as("another caller's session of the same id").isNull();
        assertThat(s.previous(alice).chunkIds()).containsExactly("a#0");
        assertThat(s.previous(alice).promptTokens()).containsExactly(1, 2, 3);

        s.remember(bob, null, List.of("b#0"), new int[] {9});
        s.previous(alice); // alice used more recently than bob
        s.remember(new SessionContexts.Key("carol", "s1"), null, List.of("c#0"), new int[] {7});
        assertThat(s.size()).isEqualTo(2);
        assertThat(s.previous(bob)).as("least recently used left").isNull();
        assertThat(s.previous(alice)).isNotNull();

        clock.now = clock.now.plus(Duration.ofMinutes(30));
        assertThat(s.trim()).as("both left sessions expired").isEqualTo(2);
        assertThat(s.size()).isZero();
        assertThat(s.previous(alice)).as("expired").isNull();
        assertThatThrownBy(() -> new InMemorySessionContexts(0, Duration.ofMinutes(1), 1, clock))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static SelectionItem item(String id, double score, int tokens) {
        return new SelectionItem(id, id.substring(0, id.indexOf('#')), 0, score, tokens, "text of " + id, List.of(),
                null);
    }

    @Test
    void carriedSelectionKeepsThePreviousPrefixWhileStillSelectedOrCarriedAndFillsTheRestByScore() {
        SelectionItem a = item("a.md#0", 0.2, 100);
        SelectionItem b = item("b.md#0", 0.9, 100);
        SelectionItem c = item("c.md#0", 0.5, 100);
        SelectionItem d = item("d.md#0", 0.8, 100);
        SelectionItem e = item("e.md#0", 0.7, 100);
        List<SelectionItem> pool = List.of(b, d, e, c, a);
        List<SelectionItem> distinct = List.of(b, d, e, c);
        Set<String> selected = Set.of("b.md#0", "d.md#0", "e.md#0", "c.md#0");
        // a is carried (a candidate, within the share), c and e are still selected; x.md#0 is no longer a
        // candidate (out of scope, unreadable or irrelevant now): the prefix ends there and b fills the rest
        SessionSelection.Result r = SessionSelection.select(List.of("a.md#0", "c.md#0", "e.md#0", "x.md#0", "b.md#0"),
                pool, selected, distinct, 4, 400, 0.5, 0);
        assertThat(r.ordered()).extracting(SelectionItem::chunkId)
                .containsExactly("a.md#0", "c.md#0", "e.md#0", "b.md#0");
        assertThat(r.tokensUsed()).isEqualTo(400);
        // a scores under half the lowest selected score (c, 0.5): not carried, and nothing after it is kept in front
        assertThat(SessionSelection.select(List.of("a.md#0", "c.md#0"), pool, selected, distinct, 4, 400, 0.5, 0.5)
                .ordered()).extracting(SelectionItem::chunkId).containsExactly("b.md#0", "d.md#0", "e.md#0", "c.md#0");
        // a still selected chunk after the end of the prefix takes its place by score, not in front
        assertThat(SessionSelection.select(List.of("c.md#0", "x.md#0", "e.md#0"), pool, selected, distinct, 4, 400,
                0.5, 0.5).ordered()).extracting(SelectionItem::chunkId)
                .containsExactly("c.md#0", "b.md#0", "d.md#0", "e.md#0");
        // no share: only still selected chunks are kept in front
        assertThat(SessionSelection.select(List.of("a.md#0"), pool, selected, distinct, 2, 400, 0, 0).ordered())
                .extracting(SelectionItem::chunkId).containsExactly("b.md#0", "d.md#0");
        // the budget holds whatever is carried
        SessionSelection.Result tight = SessionSelection.select(List.of("a.md#0", "c.md#0"), pool, selected,
                distinct, 10, 250, 1.0, 0);
        assertThat(tight.tokensUsed()).isLessThanOrEqualTo(250);
        assertThat(tight.ordered()).extracting(SelectionItem::chunkId).containsExactly("a.md#0", "c.md#0");
        assertThatThrownBy(() -> SessionSelection.select(List.of(), pool, selected, distinct, 1, 1, 1.5, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionSelection.select(List.of(), pool, selected, distinct, 1, 1, 0.5, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
    @Test
    void aTurnWithNoneOfThePreviousChunksSelectedCarriesNothingAndGetsThePlainSelection() {
        SelectionItem a = item("a.md#0", 0.2, 100);
        SelectionItem b = item("b.md#0", 0.9, 100);
        SelectionItem d = item("d.md#0", 0.8, 100);
        List<SelectionItem> distinct = List.of(b, d, a);
        Set<String> selected = Set.of("b.md#0", "d.md#0");
        // a is a candidate within the share, but the session has left its topic: nothing of it is selected
        assertThat(SessionSelection.select(List.of("a.md#0"), List.of(a), selected, distinct, 2, 400, 1.0, 0)
                .ordered()).extracting(SelectionItem::chunkId).containsExactly("b.md#0", "d.md#0");
        // one previous chunk still selected: the session is on topic and a is carried in front of it
        assertThat(SessionSelection.select(List.of("a.md#0", "d.md#0"), List.of(a, d), selected, distinct, 3, 400,
                1.0, 0).ordered()).extracting(SelectionItem::chunkId).containsExactly("a.md#0", "d.md#0", "b.md#0");
    }
}
