package io.poimen.memory.retrieval.select;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.vault.Chunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The early exit of the Jaccard test and the shingle memo decide exactly as the plain computation. */
class ShingleShortcutsTest {

    /** Example vault texts, and copies of them with a few words changed so that some pairs are near duplicates. */
    private static List<String> texts() {
        List<String> out = new ArrayList<>();
        Random random = new Random(5);
        for (Chunk c : ExampleVaultChunks.all()) {
            out.add(c.text());
            String[] words = c.text().split(" ");
            for (int edits = 1; edits <= 8; edits *= 2) {
                String[] copy = words.clone();
                for (int e = 0; e < edits; e++) {
                    copy[random.nextInt(copy.length)] = "changed" + e;
                }
                out.add(String.join(" ", copy));
            }
        }
        return out;
    }

    @Test
    void theEarlyExitAgreesWithJaccardOnEveryPairAtEveryThreshold() {
        List<String> texts = texts();
        int near = 0;
        for (int width : new int[] {1, 3, 5}) {
            for (double threshold : new double[] {0.05, 0.5, 0.8, 0.9, 1.0}) {
                ShingleDeduplicator d = new ShingleDeduplicator(width, threshold);
                List<long[]> sets = texts.stream().map(d::shingles).toList();
                for (int i = 0; i < sets.size(); i++) {
                    // each text against its neighbours: its edited copies and the chunks of the same note
                    for (int j = i; j < Math.min(sets.size(), i + 12); j++) {
                        boolean expected = d.similarity(texts.get(i), texts.get(j)) >= threshold;
                        assertThat(d.nearDuplicates(sets.get(i), sets.get(j)))
                                .as("width %d, threshold %s, %d vs %d", width, threshold, i, j).isEqualTo(expected);
                        near += expected ? 1 : 0;
                    }
                }
            }
        }
        assertThat(near).as("pairs on both sides of the threshold").isBetween(1000, 100_000);
    }

    @Test
    void aMemoOfShinglesKeepsAndDropsTheSameItems() {
        List<String> texts = texts();
        List<SelectionItem> items = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < texts.size(); i++) {
            items.add(new SelectionItem("c" + i, "p", 0, random.nextDouble(), 10, texts.get(i), List.of(), null));
        }
        ChunkMemo<long[]> memo = ShingleDeduplicator.memo();
        for (int width : new int[] {2, 5, 2}) {
            ShingleDeduplicator plain = new ShingleDeduplicator(width, 0.8);
            ShingleDeduplicator memoised = new ShingleDeduplicator(width, 0.8, memo);
            for (int round = 0; round < 2; round++) {
                ShingleDeduplicator.Result expected = plain.deduplicate(items, 200);
                assertThat(memoised.deduplicate(items, 200)).isEqualTo(expected);
                assertThat(expected.removed()).isNotEmpty();
            }
        }
        // the same ids with other texts: the memo must not answer with the old shingles
        List<SelectionItem> edited = items.stream().map(i -> new SelectionItem(i.chunkId(), i.path(), 0, i.score(),
                10, texts.get((Integer.parseInt(i.chunkId().substring(1)) + 1) % texts.size()), List.of(), null))
                .toList();
        assertThat(new ShingleDeduplicator(2, 0.8, memo).deduplicate(edited))
                .isEqualTo(new ShingleDeduplicator(2, 0.8).deduplicate(edited));
    }
}
