package io.poimen.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultInjectedEmbeddingModelTest {

    @Test
    void failsExactlyWhileTheFailureFileExists(@TempDir Path dir) throws Exception {
        Path flag = dir.resolve("embedding-fails");
        FaultInjectedEmbeddingModel model = new FaultInjectedEmbeddingModel(new AllMiniLmL6V2QuantizedEmbeddingModel(),
                flag);

        assertThat(model.embed("pod restarts").content().vector()).hasSize(384);
        Files.createFile(flag);
        assertThatThrownBy(() -> model.embed("pod restarts")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("injected");
        Files.delete(flag);
        assertThat(model.embed("pod restarts").content().vector()).hasSize(384);
        assertThat(model.dimension()).isEqualTo(384);
    }
}
