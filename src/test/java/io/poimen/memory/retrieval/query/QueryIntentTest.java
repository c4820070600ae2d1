package io.poimen.memory.retrieval.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryIntentTest {
    private final QueryNormalizer normalizer = new QueryNormalizer();
    private final QueryIntent intent = new QueryIntent();

    private Set<String> of(String query) {
        return intent.categories(normalizer.normalize(query));
    }

    @Test
    void recognisesErrorSolutionAndTool() {
        assertThat(of("how to fix ECONNREFUSED")).containsExactly("error", "solution");
        assertThat(of("pod stuck in CrashLoopBackOff")).containsExactly("error");
        assertThat(of("TLS handshake failed")).containsExactly("error");
        assertThat(of("how do I resolve this")).containsExactly("solution");
        assertThat(of("kubectl logs previous container")).containsExactly("tool");
        assertThat(of("what is a wiki link")).isEmpty();
    }

    @Test
    void toolNamesAreConfigurable() {
        QueryIntent custom = new QueryIntent(Set.of("poimenctl"));
        assertThat(custom.categories(normalizer.normalize("poimenctl sync"))).containsExactly("tool");
        assertThat(custom.categories(normalizer.normalize("kubectl sync"))).isEmpty();
    }
}
