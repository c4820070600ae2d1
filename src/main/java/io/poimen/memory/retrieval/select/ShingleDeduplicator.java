package io.poimen.memory.retrieval.select;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Near-duplicate removal with word shingles (Broder 1997). S(t) is the set of w-word windows of t's lower-cased
 * words (a text shorter than w words is one shingle of all its words);
 * <pre>  J(a, b) = |S(a) ∩ S(b)| / |S(a) ∪ S(b)|</pre>
 * and J ≥ threshold makes b a near duplicate of a. Items are visited best first (score, then chunk id); an item
 * is kept unless it is a near duplicate of an item already kept, so of two near duplicates the higher scored one
 * stays. Empty texts have no shingles and duplicate nothing.
 */
public class ShingleDeduplicator {
    public static final int DEFAULT_WIDTH = 5;
    public static final double DEFAULT_THRESHOLD = 0.8;

    /**
     * @param kept    the surviving items, best first
     * @param removed removed chunk id → id of the kept chunk it duplicates
     */
    public record Result(List<SelectionItem> kept, Map<String, String> removed) {
        public Result {
            kept = List.copyOf(kept);
            removed = Collections.unmodifiableMap(new LinkedHashMap<>(removed));
        }
    }

    private final int width;
    private final double threshold;
    private final ChunkMemo<long[]> memo;

    public ShingleDeduplicator() {
        this(DEFAULT_WIDTH, DEFAULT_THRESHOLD);
    }

    /** @throws IllegalArgumentException when width &lt; 1 or threshold is not in (0, 1] */
    public ShingleDeduplicator(int width, double threshold) {
        this(width, threshold, null);
    }

    /**
     * @param memo where the shingles of a chunk are kept across queries (shared by deduplicators of any width);
     *             null: derived on every call
     * @throws IllegalArgumentException when width &lt; 1 or threshold is not in (0, 1]
     */
    public ShingleDeduplicator(int width, double threshold, ChunkMemo<long[]> memo) {
        if (width < 1) {
            throw new IllegalArgumentException("shingle width must be ≥ 1, got " + width);
        }
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("near-duplicate threshold must be in (0, 1], got " + threshold);
        }
        this.width = width;
        this.threshold = threshold;
        this.memo = memo;
    }

    /** A memo of shingle sets for {@link #ShingleDeduplicator(int, double, ChunkMemo)}, about 8 MB. */
    public static ChunkMemo<long[]> memo() {
        return new ChunkMemo<>(8L << 20, s -> 16 + 8 * s.length);
    }

    public Result deduplicate(List<SelectionItem> items) {
        return deduplicate(items, Integer.MAX_VALUE);
    }

    /**
     * As {@link #deduplicate(List)}, stopping once {@code maxKept} items are kept: the rest would be cut by
     * top-k anyway, and the pairwise comparison is the costly part of selection.
     */
    public Result deduplicate(List<SelectionItem> items, int maxKept) {
        List<SelectionItem> sorted = new ArrayList<>(items);
        sorted.sort(SelectionItem::byScoreDesc);
        List<SelectionItem> kept = new ArrayList<>();
        List<long[]> keptShingles = new ArrayList<>();
        Map<String, String> removed = new LinkedHashMap<>();
        for (SelectionItem item : sorted) {
            if (kept.size() >= maxKept) {
                break;
            }
            long[] s = memo == null ? shingles(item.text())
                    : memo.get(item.chunkId(), width, item.text(), () -> shingles(item.text()));
            String duplicateOf = null;
            for (int i = 0; i < kept.size() && duplicateOf == null; i++) {
                long[] k = keptShingles.get(i);
                // J(a, b) ≤ min/max, so sets of very different sizes are never near-duplicates
                if (Math.min(s.length, k.length) >= threshold * Math.max(s.length, k.length)
                        && nearDuplicates(s, k)) {
                    duplicateOf = kept.get(i).chunkId();
                }
            }
            if (duplicateOf == null) {
                kept.add(item);
                keptShingles.add(s);
            } else {
                removed.put(item.chunkId(), duplicateOf);
            }
        }
        return new Result(kept, removed);
    }

    /** J(a, b) of two texts, with this deduplicator's shingle width. */
    public double similarity(String a, String b) {
        return jaccard(shingles(a), shingles(b));
    }

    /**
     * S(text) as sorted distinct 64-bit hashes of the shingles: comparing two sets is then a merge of two arrays,
     * where string shingles made selection the slowest step after the branches. Two different shingles share a
     * hash with a chance of about 2^-64 per pair.
     */
    long[] shingles(String text) {
        long[] words = wordHashes(text);
        if (words.length == 0) {
            return words;
        }
        int n = words.length < width ? 1 : words.length - width + 1;
        int w = Math.min(width, words.length);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long h = 0x9E3779B97F4A7C15L;
            for (int j = i; j < i + w; j++) {
                h = (h ^ words[j]) * 0xBF58476D1CE4E5B9L;
                h ^= h >>> 31;
            }
            out[i] = h;
        }
        Arrays.sort(out);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || out[i] != out[i - 1]) {
                out[distinct++] = out[i];
            }
        }
        return distinct == n ? out : Arrays.copyOf(out, distinct);
    }

    /** FNV-1a hashes of the lower-cased runs of letters and digits of {@code text}, in order. */
    private static long[] wordHashes(String text) {
        long[] out = new long[16];
        int count = 0;
        long h = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.charAt(i);
            if (cp < 0x80) { // ASCII: the same test and lower case as below, without the Unicode tables
                i++;
                boolean word = (cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9');
                if (cp >= 'A' && cp <= 'Z') {
                    cp += 'a' - 'A';
                    word = true;
                }
                if (word) {
                    h = ((inWord ? h : 0xcbf29ce484222325L) ^ cp) * 0x100000001b3L;
                    inWord = true;
                    continue;
                }
            } else {
                cp = text.codePointAt(i);
                i += Character.charCount(cp);
            }
            if (cp >= 0x80 && (Character.isLetter(cp) || Character.isDigit(cp)
                    || Character.getType(cp) == Character.LETTER_NUMBER
                    || Character.getType(cp) == Character.OTHER_NUMBER)) {
                h = (inWord ? h : 0xcbf29ce484222325L);
                int lower = Character.toLowerCase(cp);
                if (Character.isBmpCodePoint(lower)) {
                    h = (h ^ lower) * 0x100000001b3L;
                } else { // the UTF-16 pair, as the text holds it
                    h = (h ^ Character.highSurrogate(lower)) * 0x100000001b3L;
                    h = (h ^ Character.lowSurrogate(lower)) * 0x100000001b3L;
                }
                inWord = true;
            } else if (inWord) {
                out = count == out.length ? Arrays.copyOf(out, 2 * count) : out;
                out[count++] = h;
                inWord = false;
            }
        }
        if (inWord) {
            out = count == out.length ? Arrays.copyOf(out, count + 1) : out;
            out[count++] = h;
        }
        return Arrays.copyOf(out, count);
    }

    /**
     * {@code jaccard(a, b) >= threshold}, giving up as soon as too few shingles are left to share: the common
     * count that reaches the threshold is found with the same division, and J grows with the common count.
     */
    boolean nearDuplicates(long[] a, long[] b) {
        if (a.length == 0 || b.length == 0) {
            return 0.0 >= threshold;
        }
        int total = a.length + b.length;
        int most = Math.min(a.length, b.length);
        int need = Math.max(0, (int) (threshold * total / (1 + threshold)) - 2);
        while (need <= most && (double) need / (total - need) < threshold) {
            need++;
        }
        if (need > most) {
            return false;
        }
        return common(a, b, need) >= need;
    }

    /**
     * The shingles {@code a} and {@code b} (sorted) share, or -1 as soon as too few are left to reach
     * {@code need} (0: always the count).
     */
    private static int common(long[] a, long[] b, int need) {
        int common = 0;
        for (int i = 0, j = 0; i < a.length && j < b.length; ) {
            if (a[i] == b[j]) {
                common++;
                i++;
                j++;
                continue;
            }
            if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
            if (common + Math.min(a.length - i, b.length - j) < need) {
                return -1;
            }
        }
        return common;
    }

    private static double jaccard(long[] a, long[] b) {
        if (a.length == 0 || b.length == 0) {
            return 0.0;
        }
        int common = common(a, b, 0);
        return (double) common / (a.length + b.length - common);
    }
}
