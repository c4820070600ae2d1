package io.poimen.memory.index.lucene;

import io.poimen.memory.vault.Terms;
import io.poimen.memory.vault.VaultTextAnalyzer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

/**
 * The BM25 query both lexical indexes send, so that Lucene and OpenSearch rank alike: the query text analysed
 * here, once, with the chunk fields' own analysis ({@link #analyzer()}), and per field its distinct terms (the
 * first {@value QueryTokens#MAX_TERMS}), joined as
 * <pre>  EXACT_BOOST · dismax_f( boost_f · Σ_t term(f, t) )  +  dismax_f( boost_f · Σ_t fuzzy(f, t) )</pre>
 * where the fuzzy part holds only the typo case: a term of the first {@value QueryTokens#MAX_FUZZY_TERMS} of a
 * text field that no text field of any chunk holds (asking the index is the store's part, {@link #typoCandidates}),
 * with 1 edit for 5–7 characters and 2 from 8 ({@link #maxEdits}), never the path field. A term that is in the
 * index anyway is not fuzzed: its neighbours would only blur an exact match, and expanding them cost most of the
 * branch's time.
 */
public final class LexicalQueryPlan {
    public static final float EXACT_BOOST = 3f;
    public static final String CONTENT = "content";
    public static final String BREADCRUMB = "breadcrumb";
    public static final String HEADING = "heading";
    /** The note's path, analysed with the standard analyzer (no stemming, no stop words). */
    public static final String SOURCE = "source";
    /** The references of the chunk's links ({@link io.poimen.memory.vault.LinkText}): names, like the path. */
    public static final String LINKS = "links";
    /** Fields and boosts, in the order both indexes list them. */
    public static final List<Field> FIELDS = List.of(new Field(CONTENT, 2f), new Field(BREADCRUMB, 1f),
            new Field(SOURCE, 1f), new Field(HEADING, 1f), new Field(LINKS, 1f));
    /** The fields analysed with {@link VaultTextAnalyzer}: the ones whose terms decide what "held" means. */
    public static final List<String> TEXT_FIELDS = List.of(CONTENT, BREADCRUMB, HEADING, LINKS);

    /** A queried field and its boost. */
    public record Field(String name, float boost) {
    }

    /** One field's part of the query: its analysed terms, and those the typo clause may take. */
    public record FieldTerms(Field field, List<String> terms, List<String> typoCandidates) {
    }

    private static final Analyzer ANALYZER = new PerFieldAnalyzerWrapper(new VaultTextAnalyzer(),
            Map.of(SOURCE, new StandardAnalyzer()));

    private final List<FieldTerms> fields;

    private LexicalQueryPlan(List<FieldTerms> fields) {
        this.fields = fields;
    }

    /** The analysis of every chunk field, as the Lucene index writes it and the OpenSearch mapping declares it. */
    public static Analyzer analyzer() {
        return ANALYZER;
    }

    /** The plan of {@code text}; empty ({@link #isEmpty}) when no field has a term after analysis. */
    public static LexicalQueryPlan of(String text) {
        List<FieldTerms> out = new ArrayList<>();
        for (Field field : FIELDS) {
            List<String> terms = new ArrayList<>(analyze(field.name(), text));
            if (terms.isEmpty()) {
                continue;
            }
            terms = terms.subList(0, Math.min(terms.size(), QueryTokens.MAX_TERMS));
            List<String> typo = new ArrayList<>();
            if (!field.name().equals(SOURCE)) {
                for (int i = 0; i < Math.min(terms.size(), QueryTokens.MAX_FUZZY_TERMS); i++) {
                    if (maxEdits(terms.get(i)) > 0) {
                        typo.add(terms.get(i));
                    }
                }
            }
            out.add(new FieldTerms(field, List.copyOf(terms), List.copyOf(typo)));
        }
        return new LexicalQueryPlan(List.copyOf(out));
    }

    public List<FieldTerms> fields() {
        return fields;
    }

    public boolean isEmpty() {
        return fields.isEmpty();
    }

    /** The distinct terms the typo clause may take, if no text field holds them. */
    public Set<String> typoCandidates() {
        Set<String> out = new LinkedHashSet<>();
        fields.forEach(f -> out.addAll(f.typoCandidates()));
        return out;
    }

    /** Allowed edits for an analyzed term: 0 below 5 characters, 1 for 5–7, 2 from 8. */
    public static int maxEdits(String term) {
        int length = term.codePointCount(0, term.length());
        return length >= 8 ? 2 : length >= 5 ? 1 : 0;
    }

    private static Set<String> analyze(String field, String text) {
        return new LinkedHashSet<>(Terms.analyze(ANALYZER, field, text));
    }
}
