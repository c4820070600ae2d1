package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PathMentionsTest {

    @Test
    void hidesOnlyThePathsTheCallerMayNotRead() {
        String text = "checkout conflict with projects/ml/secret.md, shared/ok.md and projects/poimen/a.md;"
                + " see (projects/ml/x/y.md) not myprojects/ml/z.md";
        assertThat(PathMentions.withoutDenied(text, p -> !p.startsWith("projects/ml/")))
                .isEqualTo("checkout conflict with [path hidden], shared/ok.md and projects/poimen/a.md;"
                        + " see ([path hidden]) not myprojects/ml/z.md");
    }

    @Test
    void textWithoutPathsAndNullStayAsTheyAre() {
        assertThat(PathMentions.withoutDenied("no paths here", p -> false)).isEqualTo("no paths here");
        assertThat(PathMentions.withoutDenied(null, p -> false)).isNull();
    }
}
