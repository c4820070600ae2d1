package io.poimen.memory.ops.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadHarnessTest {

    @Test
    void nearestRankPercentiles() {
        List<Long> micros = java.util.stream.LongStream.rangeClosed(1, 100).map(i -> i * 1000).boxed().toList();
        assertThat(LoadHarness.pct(micros, 50)).isEqualTo(50.0);
        assertThat(LoadHarness.pct(micros, 99)).isEqualTo(99.0);
        assertThat(LoadHarness.pct(List.of(7000L), 95)).isEqualTo(7.0);
        assertThat(LoadHarness.pct(List.of(), 95)).isZero();
    }

    @Test
    void asksEachNoteTitleInItsOwnProject() throws Exception {
        List<String[]> q = LoadHarness.queries(Path.of("examples/vault"));
        assertThat(q).hasSizeGreaterThan(5);
        assertThat(q).anyMatch(p -> p[0].equals("rust-guide")).anyMatch(p -> p[0].equals("poimen"));
        assertThat(q).allMatch(p -> !p[1].isBlank());
    }

    @Test
    void refusesAnythingButLoopback() throws Exception {
        LoadHarness.requireLoopback(URI.create("http://127.0.0.1:8091"));
        LoadHarness.requireLoopback(URI.create("http://localhost:8091"));
        assertThatThrownBy(() -> LoadHarness.requireLoopback(URI.create("http://10.1.2.3:8080")))
                .hasMessageContaining("loopback only");
    }
}
