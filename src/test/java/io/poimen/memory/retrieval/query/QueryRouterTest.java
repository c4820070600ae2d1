package io.poimen.memory.retrieval.query;

import static io.poimen.memory.retrieval.branch.Branch.LEXICAL;
import static io.poimen.memory.retrieval.branch.Branch.SEMANTIC;
import static io.poimen.memory.retrieval.branch.Branch.TFIDF;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QueryRouterTest {
    private final QueryNormalizer normalizer = new QueryNormalizer();
    private final QueryRouter router = new QueryRouter();

    private RoutePlan route(String query, String method, boolean embedding) {
        return router.route(normalizer.normalize(query), method, embedding);
    }

    @Test
    void longQueryWithEmbeddingIsHybrid() {
        RoutePlan plan = route("how to fix pod crashes", null, true);
        assertThat(plan.strategy()).isEqualTo("hybrid");
        assertThat(plan.branches()).containsExactlyInAnyOrder(TFIDF, SEMANTIC, LEXICAL);
        assertThat(plan.lexicalFilters()).isFalse();
        assertThat(plan.reason()).contains("5 tokens");
    }

    @Test
    void fewerThanThreeTokensIsLexicalOnly() {
        RoutePlan plan = route("CrashLoopBackOff kubectl", null, true);
        assertThat(plan.strategy()).isEqualTo("lexical");
        assertThat(plan.branches()).containsExactlyInAnyOrder(TFIDF, LEXICAL);
        assertThat(plan.reason()).contains("2 token(s) < 3");
    }

    /** Chinese and Japanese write no space between words: a question is one "word" to a split on spaces. */
    @Test
    void aQuestionWithoutSpacesCountsItsWordsByCharacterPairs() {
        RoutePlan question = route("日本の首都はどこですか", null, true);
        assertThat(question.strategy()).isEqualTo("hybrid");
        assertThat(question.reason()).contains("6 tokens");
        assertThat(route("数据库怎么备份", null, true).strategy()).isEqualTo("hybrid");

        RoutePlan word = route("東京", null, true);
        assertThat(word.strategy()).isEqualTo("lexical");
        assertThat(word.reason()).contains("1 token(s) < 3");
        assertThat(route("猫 犬", null, true).strategy()).isEqualTo("lexical");
    }

    @Test
    void tagsOrMentionsGiveFilteredLexicalEvenForShortQueries() {
        RoutePlan tagged = route("how do we deploy #k8s", null, true);
        assertThat(tagged.strategy()).isEqualTo("lexical-filtered");
        assertThat(tagged.branches()).containsExactlyInAnyOrder(TFIDF, LEXICAL);
        assertThat(tagged.lexicalFilters()).isTrue();
        assertThat(tagged.reason()).contains("#k8s");

        RoutePlan shortMention = route("@alice notes", null, true);
        assertThat(shortMention.strategy()).isEqualTo("lexical-filtered");
        assertThat(shortMention.reason()).contains("@alice");
    }

    @Test
    void noEmbeddingIsLexicalOnly() {
        RoutePlan plan = route("how to fix pod crashes", null, false);
        assertThat(plan.strategy()).isEqualTo("lexical");
        assertThat(plan.branches()).doesNotContain(SEMANTIC);
        assertThat(plan.reason()).contains("embedding unavailable");
    }

    @Test
    void requestedMethodWins() {
        assertThat(route("a", "HYBRID", true).branches()).containsExactlyInAnyOrder(TFIDF, SEMANTIC, LEXICAL);
        assertThat(route("how to fix pod crashes", "lexical", true).branches()).containsExactly(LEXICAL);
        assertThat(route("how to fix pod crashes", "tfidf", true).branches()).containsExactly(TFIDF);
        RoutePlan semantic = route("x #ops", " semantic ", false);
        assertThat(semantic.strategy()).isEqualTo("semantic");
        assertThat(semantic.branches()).containsExactly(SEMANTIC);
        assertThat(semantic.lexicalFilters()).isTrue();
        assertThat(semantic.reason()).contains("requested").contains("embedding unavailable");
    }

    @Test
    void unknownMethodIsNamed() {
        assertThatThrownBy(() -> route("how to fix pods", "bm25", true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'bm25'");
    }

    @Test
    void blankMethodMeansDecide() {
        assertThat(route("how to fix pod crashes", "  ", true).strategy()).isEqualTo("hybrid");
    }

    @Test
    void theHybridThresholdComesFromThePolicy() {
        NormalizedQuery q = normalizer.normalize("fix pod crashes today");
        assertThat(router.route(q, null, true, 3).strategy()).isEqualTo("hybrid");
        RoutePlan plan = router.route(q, null, true, 5);
        assertThat(plan.strategy()).isEqualTo("lexical");
        assertThat(plan.reason()).contains("4 token(s) < 5");
    }
}
