package io.poimen.memory.retrieval.select;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.poimen.memory.retrieval.query.NormalizedQuery;
import io.poimen.memory.retrieval.query.QueryIntent;
import io.poimen.memory.vault.Terms;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Boosts a chunk whose metadata matches the query:
 * <pre>  factor = (keyTermMatch ? keyTermFactor : 1) · (categoryMatch ? categoryFactor : 1)</pre>
 * Key term match: some key term of the chunk, analysed with {@link Terms}, has all its terms among the query's
 * terms (so "Crash loops" matches a query about "crashing loop"). Category match: the chunk's category is one of
 * the query's intents ({@link QueryIntent}). Each boost applies at most once, however many key terms match,
 * so a boosted score stays within keyTermFactor · categoryFactor of the fused one (1.95 with the defaults).
 */
public class MetadataBooster {
    public static final double DEFAULT_KEY_TERM_FACTOR = 1.5;
    public static final double DEFAULT_CATEGORY_FACTOR = 1.3;

    /**
     * @param factor product of the boosts that fired, 1.0 when none did
     * @param fired  what fired, for the score breakdown: {@code key_term:<term>}, {@code category:<category>}
     */
    public record Boost(double factor, List<String> fired) {
        public Boost {
            fired = List.copyOf(fired);
        }
    }

    /** Key terms repeat across chunks and queries: each is analysed once (bounded). */
    private static final Cache<String, List<String>> ANALYSED = Caffeine.newBuilder().maximumSize(50_000)
            .executor(Runnable::run).build();

    private final double keyTermFactor;
    private final double categoryFactor;
    private final QueryIntent intent;

    public MetadataBooster() {
        this(DEFAULT_KEY_TERM_FACTOR, DEFAULT_CATEGORY_FACTOR, new QueryIntent());
    }

    /** @throws IllegalArgumentException when a factor is not a finite number ≥ 1 */
    public MetadataBooster(double keyTermFactor, double categoryFactor, QueryIntent intent) {
        this.keyTermFactor = check("key term", keyTermFactor);
        this.categoryFactor = check("category", categoryFactor);
        this.intent = intent;
    }

    public Boost boost(NormalizedQuery query, SelectionItem item) {
        return boost(new HashSet<>(query.terms()), intent.categories(query), item);
    }

    /** {@link #boost} for many items of one query: the query's terms and intents are analysed once. */
    public java.util.function.Function<SelectionItem, Boost> forQuery(NormalizedQuery query) {
        Set<String> terms = new HashSet<>(query.terms());
        Set<String> categories = intent.categories(query);
        return item -> boost(terms, categories, item);
    }

    /** The boost of each item, in the items' order (query analysed once). */
    public List<Boost> boosts(NormalizedQuery query, List<SelectionItem> items) {
        return items.stream().map(forQuery(query)).toList();
    }

    /** Boosts every item (query analysed once) and returns them re-sorted, best first. */
    public List<SelectionItem> apply(NormalizedQuery query, List<SelectionItem> items) {
        var boost = forQuery(query);
        List<SelectionItem> out = new ArrayList<>(items.size());
        for (SelectionItem item : items) {
            out.add(item.withScore(item.score() * boost.apply(item).factor()));
        }
        out.sort(SelectionItem::byScoreDesc);
        return out;
    }

    private Boost boost(Set<String> queryTerms, Set<String> intents, SelectionItem item) {
        double factor = 1.0;
        List<String> fired = new ArrayList<>(2);
        for (String keyTerm : item.keyTerms()) {
            List<String> analysed = ANALYSED.get(keyTerm, Terms::analyze);
            if (!analysed.isEmpty() && queryTerms.containsAll(analysed)) {
                factor *= keyTermFactor;
                fired.add("key_term:" + keyTerm);
                break;
            }
        }
        if (item.category() != null && intents.contains(item.category())) {
            factor *= categoryFactor;
            fired.add("category:" + item.category());
        }
        return new Boost(factor, fired);
    }

    private static double check(String name, double factor) {
        if (!(factor >= 1.0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException(name + " boost factor must be a finite number ≥ 1, got " + factor);
        }
        return factor;
    }
}
