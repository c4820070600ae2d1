package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SearchScopeTest {

    private static final int NOTES = SearchScope.PROJECT_FILTER_MIN_PATHS + 10;

    private static Set<String> projectNotes(int n) {
        return IntStream.range(0, n).mapToObj(i -> "projects/big/n-" + i + ".md").collect(Collectors.toSet());
    }

    @Test
    void aLargeProjectScopeIsDescribedByItsProjectLessTheNotesOutOfScopePlusTheSharedNotes() {
        Set<String> own = projectNotes(NOTES);
        Set<String> paths = new HashSet<>(own);
        paths.removeAll(Set.of("projects/big/n-3.md", "projects/big/n-5.md"));
        paths.addAll(Set.of("shared/a.md", "shared/b.md"));

        SearchScope scope = SearchScope.ofProject("big", paths, own, List.of("ops"));

        assertThat(scope.paths()).isSameAs(paths);
        assertThat(scope.tags()).containsExactly("ops");
        assertThat(scope.byProject()).isEqualTo(new SearchScope.ProjectFilter("big",
                Set.of("projects/big/n-3.md", "projects/big/n-5.md"), Set.of("shared/a.md", "shared/b.md")));
    }

    @Test
    void aSmallScopeKeepsThePathListOnly() {
        Set<String> own = projectNotes(SearchScope.PROJECT_FILTER_MIN_PATHS - 1);
        assertThat(SearchScope.ofProject("big", own, own, List.of()).byProject()).isNull();
    }

    @Test
    void containsChunkReadsTheNotePathOfTheChunkId() {
        SearchScope scope = SearchScope.of(Set.of("projects/big/a#b.md"));
        assertThat(scope.containsChunk("projects/big/a#b.md#0")).isTrue();
        assertThat(scope.containsChunk("projects/big/a.md#0")).isFalse();
        assertThat(SearchScope.all().containsChunk("anything.md#3")).isTrue();
    }
}
