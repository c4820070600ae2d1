package io.poimen.memory.retrieval.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.ops.Availability;
import io.poimen.memory.retrieval.select.SessionContexts;
import io.poimen.memory.retrieval.select.SessionContexts.Key;
import io.poimen.memory.retrieval.select.SessionContexts.Previous;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link JdbcSessionContexts} on {@code session_contexts} as migrated on each store: what one replica stores another
 * reads, the ttl and size bounds, and two replicas storing turns of one session at once.
 */
abstract class JdbcSessionContextsContract {
    static final Key ALICE = new Key("alice", "s1");

    abstract DataSource dataSource();

    JdbcTemplate jdbc;

    @BeforeEach
    void empty() {
        jdbc = new JdbcTemplate(dataSource());
        jdbc.update("delete from session_contexts");
    }

    JdbcSessionContexts replica(int maxSessions, int maxTokens) {
        return new JdbcSessionContexts(dataSource(), maxSessions, Duration.ofMinutes(30), maxTokens,
                new Availability(0));
    }

    @Test
    void aTurnStoredByOneReplicaIsThePreviousContextOnAnotherKeyedByCallerAndSession() {
        JdbcSessionContexts a = replica(100, 4);
        JdbcSessionContexts b = replica(100, 4);
        assertThat(a.previous(ALICE)).isNull();
        assertThat(a.remember(ALICE, null, List.of("n.md#0", "m.md#2"), new int[] {11, 12, 13, 14, 15})).isTrue();

        Previous onB = b.previous(ALICE);
        assertThat(onB.chunkIds()).containsExactly("n.md#0", "m.md#2");
        assertThat(onB.promptTokens()).as("cut to max-tokens").containsExactly(11, 12, 13, 14);
        assertThat(b.previous(new Key("bob", "s1"))).as("another caller's session of the same id").isNull();
        assertThat(b.previous(new Key("alice", "s2"))).isNull();
        // the subject's length is part of the key: ("ab", "c") and ("a", "bc") are two sessions
        assertThat(JdbcSessionContexts.storedKey(new Key("ab", "c")))
                .isNotEqualTo(JdbcSessionContexts.storedKey(new Key("a", "bc")));

        assertThat(b.remember(ALICE, onB, List.of("m.md#2"), new int[] {21})).isTrue();
        Previous onA = a.previous(ALICE);
        assertThat(onA.chunkIds()).containsExactly("m.md#2");
        assertThat(onA.promptTokens()).containsExactly(21);
        assertThat(onA.version()).isEqualTo(onB.version() + 1);
    }

    @Test
    void aTurnIsStoredOnlyOverTheVersionItRead() {
        JdbcSessionContexts a = replica(100, 100);
        JdbcSessionContexts b = replica(100, 100);
        a.remember(ALICE, null, List.of("first.md#0"), new int[] {1});
        Previous readByA = a.previous(ALICE);
        Previous readByB = b.previous(ALICE);
        assertThat(b.remember(ALICE, readByB, List.of("b.md#0"), new int[] {2})).isTrue();
        assertThat(a.remember(ALICE, readByA, List.of("a.md#0"), new int[] {3})).as("B stored first").isFalse();
        assertThat(a.previous(ALICE).chunkIds()).containsExactly("b.md#0");
        // two first turns at once: the primary key takes one, the other is refused without an error
        Key carol = new Key("carol", "new");
        assertThat(a.remember(carol, null, List.of("a.md#0"), new int[] {4})).isTrue();
        assertThat(b.remember(carol, null, List.of("b.md#0"), new int[] {5})).isFalse();
        assertThat(b.previous(carol).chunkIds()).containsExactly("a.md#0");
    }

    @Test
    void twoReplicasStoringTurnsOfOneSessionAtOnceLeaveOneWholeTurnNeverAMix() throws Exception {
        JdbcSessionContexts[] replicas = {replica(100, 1000), replica(100, 1000)};
        int turns = 150;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> stored = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            JdbcSessionContexts store = replicas[r];
            int replica = r;
            Callable<Integer> turnsOfReplica = () -> {
                start.await();
                int ok = 0;
                for (int t = 0; t < turns; t++) {
                    Previous read = store.previous(ALICE);
                    if (store.remember(ALICE, read, ids(replica, t), tokens(replica, t))) {
                        ok++;
                    }
                }
                return ok;
            };
            stored.add(pool.submit(turnsOfReplica));
        }
        start.countDown();
        int total = 0;
        for (Future<Integer> f : stored) {
            total += f.get();
        }
        pool.shutdown();

        assertThat(total).as("stored turns").isGreaterThan(0);
        assertThat(jdbc.queryForObject("select version from session_contexts", Long.class))
                .as("one version per stored turn").isEqualTo(total);
        // the row is one turn's whole context: its tokens are those of the turn its chunk ids name
        Previous last = replicas[0].previous(ALICE);
        String[] first = last.chunkIds().get(0).split("-");
        int replica = Integer.parseInt(first[0].substring(1));
        int turn = Integer.parseInt(first[1].substring(1));
        assertThat(last.chunkIds()).isEqualTo(ids(replica, turn));
        assertThat(last.promptTokens()).containsExactly(tokens(replica, turn));
        assertThat(jdbc.queryForObject("select count(*) from session_contexts", Long.class)).isEqualTo(1);
    }

    /** Turn {@code t} of replica {@code r}: 1 to 7 chunk ids, each naming both. */
    private static List<String> ids(int r, int t) {
        return IntStream.range(0, 1 + t % 7).mapToObj(i -> "r" + r + "-t" + t + "-" + i).toList();
    }

    private static int[] tokens(int r, int t) {
        return IntStream.range(0, 3 + t % 11).map(i -> r * 1_000_000 + t * 100 + i).toArray();
    }

    @Test
    void anExpiredSessionIsAbsentReplacedByItsNextTurnAndTrimmed() {
        JdbcSessionContexts a = replica(100, 100);
        a.remember(ALICE, null, List.of("old.md#0"), new int[] {1});
        a.remember(new Key("bob", "s1"), null, List.of("bob.md#0"), new int[] {2});
        jdbc.update("update session_contexts set last_used = localtimestamp - interval '31' minute "
                + "where session_key = ?", JdbcSessionContexts.storedKey(ALICE));
        assertThat(a.previous(ALICE)).as("idle for more than the ttl").isNull();

        assertThat(a.remember(ALICE, null, List.of("new.md#0"), new int[] {3})).isTrue();
        assertThat(a.previous(ALICE).chunkIds()).containsExactly("new.md#0");

        jdbc.update("update session_contexts set last_used = localtimestamp - interval '31' minute "
                + "where session_key = ?", JdbcSessionContexts.storedKey(ALICE));
        assertThat(a.trim()).isEqualTo(1);
        assertThat(jdbc.queryForList("select session_key from session_contexts", String.class))
                .containsExactly(JdbcSessionContexts.storedKey(new Key("bob", "s1")));
    }

    @Test
    void trimKeepsTheMostRecentlyUsedSessionsUpToTheMaximum() {
        JdbcSessionContexts a = replica(3, 100);
        for (int i = 0; i < 5; i++) {
            Key k = new Key("user" + i, "s");
            a.remember(k, null, List.of("n.md#" + i), new int[] {i});
            // user0 is the least recently used, user4 the most
            jdbc.update("update session_contexts set last_used = localtimestamp - (cast(? as bigint) * interval '1' "
                    + "second) where session_key = ?", 10 - i, JdbcSessionContexts.storedKey(k));
        }
        // user1 takes another turn: now the most recently used
        Key user1 = new Key("user1", "s");
        a.remember(user1, a.previous(user1), List.of("n.md#9"), new int[] {9});

        assertThat(a.trim()).isEqualTo(2);
        for (String gone : List.of("user0", "user2")) {
            assertThat(a.previous(new Key(gone, "s"))).as(gone).isNull();
        }
        for (String kept : List.of("user1", "user3", "user4")) {
            assertThat(a.previous(new Key(kept, "s"))).as(kept).isNotNull();
        }
        assertThat(a.trim()).isZero();
    }

    @Test
    void aDatabaseFaultStartsTheSessionOverInsteadOfFailingTheTurn() {
        JdbcSessionContexts a = replica(100, 100);
        a.remember(ALICE, null, List.of("n.md#0"), new int[] {1});
        jdbc.execute("alter table session_contexts rename to session_contexts_x");
        try {
            assertThat(a.previous(ALICE)).isNull();
            assertThat(a.remember(ALICE, null, List.of("n.md#1"), new int[] {2})).isFalse();
        } finally {
            jdbc.execute("alter table session_contexts_x rename to session_contexts");
        }
        assertThat(a.previous(ALICE).chunkIds()).as("back with the database").containsExactly("n.md#0");
    }

    @Test
    void promptTokensRoundTripThroughTheirBytes() {
        int[] tokens = {0, 1, 100_255, Integer.MAX_VALUE, -1};
        assertThat(JdbcSessionContexts.tokens(JdbcSessionContexts.bytes(tokens))).containsExactly(tokens);
        assertThat(SessionContexts.kept(tokens, 2)).containsExactly(0, 1);
    }
}
