package io.poimen.memory.retrieval.select;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

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

    public ShingleDeduplicator() {
        this(DEFAULT_WIDTH, DEFAULT_THRESHOLD);
    }

    /** @throws IllegalArgumentException when width &lt; 1 or threshold is not in (0, 1] */
    public ShingleDeduplicator(int width, double threshold) {
        if (width < 1) {
            throw new IllegalArgumentException("shingle width must be ≥ 1, got " + width);
        }
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("near-duplicate threshold must be in (0, 1], got " + threshold);
        }
        this.width = width;
        this.threshold = threshold;
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
        List<Set<String>> keptShingles = new ArrayList<>();
        Map<String, String> removed = new LinkedHashMap<>();
        for (SelectionItem item : sorted) {
            if (kept.size() >= maxKept) {
                break;
            }
            Set<String> s = shingles(item.text());
            String duplicateOf = null;
            for (int i = 0; i < kept.size() && duplicateOf == null; i++) {
                Set<String> k = keptShingles.get(i);
                // J(a, b) ≤ min/max, so sets of very different sizes are never near-duplicates
                if (Math.min(s.size(), k.size()) >= threshold * Math.max(s.size(), k.size())
                        && jaccard(s, k) >= threshold) {
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

    Set<String> shingles(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            words.add(m.group());
        }
        Set<String> out = new HashSet<>();
        if (words.isEmpty()) {
            return out;
        }
        if (words.size() < width) {
            out.add(String.join(" ", words));
            return out;
        }
        for (int i = 0; i + width <= words.size(); i++) {
            out.add(String.join(" ", words.subList(i, i + width)));
        }
        return out;
    }

    private static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0.0;
        }
        Set<String> small = a.size() <= b.size() ? a : b;
        Set<String> large = small == a ? b : a;
        int common = 0;
        for (String s : small) {
            if (large.contains(s)) {
                common++;
            }
        }
        return (double) common / (a.size() + b.size() - common);
    }
}
