package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.junit.jupiter.api.Test;

class VaultTextAnalyzerTest {
    private static final Analyzer VAULT = new VaultTextAnalyzer();
    private static final Analyzer ENGLISH = new EnglishAnalyzer();

    static List<String> terms(Analyzer analyzer, String text) {
        return Terms.analyze(analyzer, "f", text);
    }

    @Test
    void japaneseIsSplitIntoCharactersAndNeighbourPairs() {
        assertThat(terms(VAULT, "東京都に住む")).containsExactly("東", "東京", "京", "京都", "都", "都に", "に", "に住",
                "住", "住む", "む");
        // the English analyzer keeps the single characters only: a two-character word is no term of its own
        assertThat(terms(ENGLISH, "東京都に住む")).doesNotContain("東京");
    }

    @Test
    void chineseAndKoreanAsWell() {
        assertThat(terms(VAULT, "数据库备份")).contains("数据", "据库", "备份", "数", "份");
        // Korean words are space-separated but carry their particles: pairs find the stem
        assertThat(terms(VAULT, "데이터베이스를 백업합니다")).contains("데이", "베이", "이스", "백업", "합니");
    }

    @Test
    void fullWidthLettersAndDigitsMeetTheirAsciiForms() {
        assertThat(terms(VAULT, "ＰｏｓｔｇｒｅＳＱＬ １５")).isEqualTo(terms(VAULT, "PostgreSQL 15"));
        assertThat(terms(VAULT, "ﾃﾞｰﾀ")).isEqualTo(terms(VAULT, "データ"));
    }

    @Test
    void mixedTextKeepsEnglishStemmingForItsEnglishWords() {
        List<String> terms = terms(VAULT, "Kubernetes の Pods が再起動する");
        assertThat(terms).contains("kubernet", "pod", "再起", "起動");
        assertThat(terms).doesNotContain("pods", "Pods");
    }

    /**
     * A text without CJK or full-/half-width characters gets exactly the English analyzer's terms: the English
     * ranking cannot change. 2,000 tries over Latin, accented Latin, Greek, Cyrillic, Arabic, digits, punctuation,
     * markdown and white space.
     */
    @Property(tries = 2000)
    void textWithoutCjkIsAnalysedAsEnglish(@ForAll("nonCjkText") String text) {
        assertThat(terms(VAULT, text)).isEqualTo(terms(ENGLISH, text));
    }

    @Provide
    Arbitrary<String> nonCjkText() {
        Arbitrary<String> words = Arbitraries.oneOf(
                Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z').ofMinLength(1).ofMaxLength(12),
                Arbitraries.strings().withCharRange('\u00C0', '\u024F').ofMinLength(1).ofMaxLength(8),
                Arbitraries.strings().withCharRange('\u0391', '\u03C9').ofMinLength(1).ofMaxLength(8),
                Arbitraries.strings().withCharRange('\u0410', '\u044F').ofMinLength(1).ofMaxLength(8),
                Arbitraries.strings().withCharRange('\u0621', '\u064A').ofMinLength(1).ofMaxLength(8),
                Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(6),
                Arbitraries.of("the", "running", "crashes", "pod's", "kube-proxy", "v1.2.3", "don't", "e.g.",
                        "#tag", "[[Link]]", "**bold**", "`code`", "https://example.org/a?b=c", "a_b", "O'Neil's"));
        Arbitrary<String> separators = Arbitraries.of(" ", "  ", "\n", "\t", ", ", ". ", "-", "/", ": ", "(", ")");
        return words.list().ofMinSize(0).ofMaxSize(25).flatMap(ws -> separators.list().ofSize(ws.size()).map(ss -> {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < ws.size(); i++) {
                b.append(ws.get(i)).append(ss.get(i));
            }
            return b.toString();
        }));
    }
}
