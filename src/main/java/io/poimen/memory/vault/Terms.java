package io.poimen.memory.vault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The one text analysis shared by TF-IDF, key-term extraction and query normalisation, and the same chain the
 * BM25 indexes use ({@link VaultTextAnalyzer}): Lucene's English analyzer (standard tokenizer, lower case, English
 * stop words, Porter stemming), so "Crashes", "crash" and "crashing" meet on one term, with Chinese, Japanese and
 * Korean split into single characters and pairs of neighbours.
 */
public final class Terms {
    private static final Analyzer ANALYZER = new VaultTextAnalyzer();

    private Terms() {
    }

    /** Analyzed terms of {@code text}, in order, duplicates kept. */
    public static List<String> analyze(String text) {
        return analyze(ANALYZER, "t", text);
    }

    /** The terms {@code analyzer} gives {@code text} in {@code field}, in order, duplicates kept. */
    public static List<String> analyze(Analyzer analyzer, String field, String text) {
        List<String> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        try (TokenStream ts = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The analyzed form of a single word, or null when it is a stop word. */
    public static String term(String word) {
        List<String> t = analyze(word);
        return t.isEmpty() ? null : t.get(0);
    }
}
