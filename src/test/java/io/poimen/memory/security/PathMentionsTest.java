package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PathMentionsTest {
    static final Set<String> VAULT = Set.of("README.md", "projects/ml/secret.md", "shared/ok.md",
            "projects/poimen/a.md", "roadmap-2027.md", "templates/daily.md", "projects/ml/My Plan.md");

    @Test
    void hidesOnlyThePathsTheCallerMayNotRead() {
        String text = "checkout conflict with projects/ml/secret.md, shared/ok.md and projects/poimen/a.md;"
                + " see (projects/ml/x/y.md) not myprojects/ml/z.md";
        assertThat(PathMentions.withoutDenied(text, VAULT, p -> !p.startsWith("projects/ml/")))
                .isEqualTo("checkout conflict with [path hidden], shared/ok.md and projects/poimen/a.md;"
                        + " see ([path hidden]) not myprojects/ml/z.md");
    }

    @Test
    void everyVaultNotePathIsHiddenWhereverItSitsNotOnlyUnderProjectsAndShared() {
        Set<String> denied = Set.of("README.md", "roadmap-2027.md", "templates/daily.md", "projects/ml/My Plan.md");
        String text = "Update README.md. Merge conflict in roadmap-2027.md:12, see [[roadmap-2027]] and "
                + "[[templates/daily|the template]] or ./README.md#Setup; also projects/ml/My Plan.md and "
                + "'notes/gone.md'; the roadmap stays a word, README is the note's name; shared/ok.md is fine.";
        assertThat(PathMentions.withoutDenied(text, VAULT, p -> !denied.contains(p) && !p.equals("notes/gone.md")))
                .isEqualTo("Update [path hidden]. Merge conflict in [path hidden]:12, see [[[path hidden]]] and "
                        + "[[[path hidden]|the template]] or [path hidden]; also [path hidden] and "
                        + "'[path hidden]'; the roadmap stays a word, [path hidden] is the note's name; shared/ok.md is fine.");
    }

    @Test
    void textWithoutPathsAndNullStayAsTheyAre() {
        assertThat(PathMentions.withoutDenied("no paths here", VAULT, p -> false)).isEqualTo("no paths here");
        assertThat(PathMentions.withoutDenied(null, VAULT, p -> false)).isNull();
    }
}
