package io.poimen.memory.index.lucene;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Caps how much of a query reaches a lexical engine. Both Lucene and OpenSearch refuse a query that expands to
 * more than 1,024 clauses (fields × terms, fuzzy terms × their expansions), and a pasted log line easily gets
 * there, so both lexical indexes keep only the first {@value #MAX_TERMS} tokens, and fuzzy-match only the first
 * {@value #MAX_FUZZY_TERMS} with at most {@value #FUZZY_EXPANSIONS} expansions each:
 * 4 fields × (64 + 16 × 10) = 896 clauses.
 */
public final class QueryTokens {
    public static final int MAX_TERMS = 64;
    public static final int MAX_FUZZY_TERMS = 16;
    public static final int FUZZY_EXPANSIONS = 10;

    private QueryTokens() {
    }

    /** The first {@code n} tokens of {@code text} as the standard tokenizer splits it, unchanged, space-joined. */
    public static String first(String text, int n) {
        List<String> tokens = new ArrayList<>();
        try (StandardTokenizer tokenizer = new StandardTokenizer()) {
            tokenizer.setReader(new StringReader(text));
            CharTermAttribute term = tokenizer.addAttribute(CharTermAttribute.class);
            tokenizer.reset();
            while (tokens.size() < n && tokenizer.incrementToken()) {
                tokens.add(term.toString());
            }
            tokenizer.end();
        } catch (IOException e) {
            throw new UncheckedIOException("Tokenizing the query failed", e);
        }
        return String.join(" ", tokens);
    }
}
