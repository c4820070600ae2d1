package io.poimen.memory.retrieval.select;

import static io.poimen.memory.retrieval.select.Items.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShingleDeduplicatorTest {
    private static final String BASE = "Restart the pod with kubectl rollout restart deployment web then watch the "
            + "events with kubectl get events and check the logs of the previous container for the crash reason";
    private final ShingleDeduplicator dedup = new ShingleDeduplicator();

    @Test
    void nearCopyIsRemovedInFavourOfTheHigherScore() {
        String copy = BASE.replace("Restart", "restart") + ".";
        ShingleDeduplicator.Result r = dedup.deduplicate(List.of(text("low", 0.4, copy), text("high", 0.9, BASE)));
        assertThat(r.kept()).extracting(SelectionItem::chunkId).containsExactly("high");
        assertThat(r.removed()).containsExactly(org.assertj.core.api.Assertions.entry("low", "high"));
    }

    @Test
    void similarityFollowsJaccardOfShingles() {
        // 29 words → 25 shingles. A new last word changes 1 shingle: J = 24 / 26, a near duplicate.
        String lastChanged = BASE.substring(0, BASE.lastIndexOf(' ')) + " cause";
        assertThat(dedup.similarity(BASE, lastChanged)).isEqualTo(24.0 / 26.0);
        assertThat(dedup.deduplicate(List.of(text("a", 0.9, BASE), text("b", 0.8, lastChanged))).kept()).hasSize(1);
        // A new 15th word changes the 5 shingles that contain it: J = 20 / 30, kept apart.
        String middleChanged = BASE.replace("with kubectl get", "with oc get");
        assertThat(dedup.similarity(BASE, middleChanged)).isEqualTo(20.0 / 30.0);
        assertThat(dedup.deduplicate(List.of(text("a", 0.9, BASE), text("b", 0.8, middleChanged))).kept()).hasSize(2);
        assertThat(dedup.similarity(BASE, BASE)).isEqualTo(1.0);
        assertThat(dedup.similarity("", "")).isZero();
    }

    @Test
    void shortTextsAreOneShingle() {
        assertThat(dedup.similarity("kubectl logs", "Kubectl  LOGS!")).isEqualTo(1.0);
        assertThat(dedup.similarity("kubectl logs", "kubectl get")).isZero();
    }

    @Test
    void emptyTextsAreNeverDuplicates() {
        assertThat(dedup.deduplicate(List.of(text("a", 1, ""), text("b", 1, " "))).kept()).hasSize(2);
    }

    @Test
    void parametersAreValidated() {
        assertThatThrownBy(() -> new ShingleDeduplicator(0, 0.8)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> new ShingleDeduplicator(5, 1.2)).hasMessageContaining("1.2");
        assertThatThrownBy(() -> new ShingleDeduplicator(5, 0)).hasMessageContaining("got 0.0");
    }

    @Test
    void wordsAreTheLowerCasedRunsOfLettersAndDigitsInEveryScript() {
        ShingleDeduplicator d = new ShingleDeduplicator(2, 0.8);
        assertThat(d.similarity("Hello, WORLD-42 foo", "hello world 42 FOO")).isEqualTo(1.0);
        assertThat(d.similarity("ÄRGER über Straße ΣΟΦΙΑ", "ärger ÜBER straße σοφια")).isEqualTo(1.0);
        // a letter outside the BMP (a surrogate pair) is part of its word, and its case folds too
        assertThat(d.similarity("x\uD801\uDC00y zz", "X\uD801\uDC28Y zz")).isEqualTo(1.0);
        assertThat(d.similarity("x\uD801\uDC00y zz", "x y zz")).isLessThan(0.8);
        assertThat(d.similarity("café au lait", "cafe au lait")).isLessThan(1.0);
    }

    @Test
    void shinglesAreTheSameAsFromCodePointsOneByOne() {
        // the ASCII fast path must hash exactly as the code-point loop it shortcuts
        ShingleDeduplicator d = new ShingleDeduplicator(3, 0.8);
        java.util.Random random = new java.util.Random(13);
        String[] alphabet = {"a", "Z", "9", " ", "-", ".", "É", "é", "ß", "Σ", "σ", "\u0661", "\u2163", "\u00bd",
                "\u3042", "\uD801\uDC00", "\uD835\uDC00", "\uD801", "\t", "\n"};
        for (int n = 0; n < 500; n++) {
            StringBuilder t = new StringBuilder();
            for (int i = random.nextInt(60); i > 0; i--) {
                t.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String text = t.toString();
            assertThat(d.shingles(text)).as(text).isEqualTo(reference(text, 3));
        }
    }

    /** S(text) from the words by code point, each hashed as FNV-1a over its lower-cased UTF-16 chars. */
    private static long[] reference(String text, int width) {
        List<Long> words = new java.util.ArrayList<>();
        StringBuilder w = new StringBuilder();
        Runnable end = () -> {
            long h = 0xcbf29ce484222325L;
            for (char c : w.toString().toCharArray()) {
                h = (h ^ c) * 0x100000001b3L;
            }
            words.add(h);
            w.setLength(0);
        };
        text.codePoints().forEach(cp -> {
            if (Character.isLetter(cp) || Character.isDigit(cp) || Character.getType(cp) == Character.LETTER_NUMBER
                    || Character.getType(cp) == Character.OTHER_NUMBER) {
                w.appendCodePoint(Character.toLowerCase(cp));
            } else if (w.length() > 0) {
                end.run();
            }
        });
        if (w.length() > 0) {
            end.run();
        }
        if (words.isEmpty()) {
            return new long[0];
        }
        int n = words.size() < width ? 1 : words.size() - width + 1;
        java.util.TreeSet<Long> out = new java.util.TreeSet<>();
        for (int i = 0; i < n; i++) {
            long h = 0x9E3779B97F4A7C15L;
            for (int j = i; j < Math.min(i + width, words.size()); j++) {
                h = (h ^ words.get(j)) * 0xBF58476D1CE4E5B9L;
                h ^= h >>> 31;
            }
            out.add(h);
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
