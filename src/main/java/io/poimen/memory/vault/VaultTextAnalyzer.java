package io.poimen.memory.vault;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.StopwordAnalyzerBase;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The one analysis of vault text, for all three branches, at index and at query time: TF-IDF ({@link Terms}), the
 * Lucene BM25 index, and OpenSearch, whose index declares the same chain ({@link #openSearchAnalysis()}) from the
 * same Lucene filters and whose queries are built from terms this analyzer produced.
 *
 * <p>It is Lucene's English analyzer (standard tokenizer, possessive {@code 's} removed, lower case, English stop
 * words, Porter stemming) with two filters for Chinese, Japanese and Korean, which are written without spaces
 * between words:
 * <ul>
 *   <li>{@link CJKWidthFilter}: full-width Latin letters and digits become the ASCII ones, half-width katakana
 *       the full-width ones ({@code １９９８} and {@code 1998} meet);</li>
 *   <li>{@link CJKBigramFilter} with unigrams: a run of Han, hiragana, katakana or Hangul characters becomes each
 *       character and each pair of neighbours ({@code 東京都} → 東, 東京, 京, 京都, 都). The pairs carry the words
 *       (most Chinese and Japanese words are two characters); the single characters keep a one-character word
 *       (猫, 山) findable, which pairs alone would not.</li>
 * </ul>
 * What is CJK is decided per token, by the Unicode script of its characters as the standard tokenizer types them
 * ({@code <IDEOGRAPHIC>}, {@code <HIRAGANA>}, {@code <KATAKANA>}, {@code <HANGUL>}); both filters leave every other
 * token as it is, so a text without CJK or full-/half-width characters gets exactly the English analyzer's terms
 * ({@code VaultTextAnalyzerTest}), and a mixed text gets English terms for its English words and pairs for the
 * rest. No dictionary: the same filters exist in OpenSearch core ({@code cjk_width}, {@code cjk_bigram}), so
 * both stores analyse identically without a plugin.
 */
public final class VaultTextAnalyzer extends StopwordAnalyzerBase {
    /** The name of this chain as a custom analyzer in the OpenSearch index. */
    public static final String OPENSEARCH_NAME = "poimen_text";

    public VaultTextAnalyzer() {
        super(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
    }

    /**
     * Whether a character is written in a script this analysis splits into characters and pairs: Han, hiragana,
     * katakana, Hangul (the scripts of the standard tokenizer's CJK token types).
     */
    public static boolean isCjk(int codePoint) {
        Character.UnicodeScript script = Character.UnicodeScript.of(codePoint);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL;
    }

    /**
     * How many words a token counts as: 1, or for a token holding CJK characters one per two of them (rounded up:
     * most Chinese and Japanese words have two characters), since those scripts write no space between words.
     */
    public static int words(String token) {
        long cjk = token.codePoints().filter(VaultTextAnalyzer::isCjk).count();
        return cjk == 0 ? 1 : (int) ((cjk + 1) / 2 + (cjk < token.codePointCount(0, token.length()) ? 1 : 0));
    }

    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer source = new StandardTokenizer();
        TokenStream result = new CJKWidthFilter(source);
        result = new EnglishPossessiveFilter(result);
        result = new LowerCaseFilter(result);
        result = new CJKBigramFilter(result, CJKBigramFilter.HAN | CJKBigramFilter.HIRAGANA
                | CJKBigramFilter.KATAKANA | CJKBigramFilter.HANGUL, true);
        result = new StopFilter(result, stopwords);
        result = new PorterStemFilter(result);
        return new TokenStreamComponents(source, result);
    }

    @Override
    protected TokenStream normalize(String fieldName, TokenStream in) {
        return new LowerCaseFilter(new CJKWidthFilter(in));
    }

    /**
     * The same chain as OpenSearch index settings ({@code settings.analysis}): a custom analyzer named
     * {@value #OPENSEARCH_NAME} over OpenSearch's own names for these Lucene filters.
     */
    public static Map<String, Object> openSearchAnalysis() {
        Map<String, Object> filters = new LinkedHashMap<>();
        filters.put("poimen_possessive", Map.of("type", "stemmer", "language", "possessive_english"));
        filters.put("poimen_cjk_bigram", Map.of("type", "cjk_bigram", "output_unigrams", true,
                "ignored_scripts", List.of()));
        filters.put("poimen_stop", Map.of("type", "stop", "stopwords", "_english_"));
        Map<String, Object> analyzer = new LinkedHashMap<>();
        analyzer.put("type", "custom");
        analyzer.put("tokenizer", "standard");
        analyzer.put("filter", List.of("cjk_width", "poimen_possessive", "lowercase", "poimen_cjk_bigram",
                "poimen_stop", "porter_stem"));
        return Map.of("filter", filters, "analyzer", Map.of(OPENSEARCH_NAME, analyzer));
    }
}
