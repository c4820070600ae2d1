package io.poimen.memory.grc.edit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.api.ApiException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NoteOperationsTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static List<NoteOperation> read(String json) throws Exception {
        return NoteOperations.fromJson(JSON.readTree(json));
    }

    @Test
    void everyOperationIsReadWithItsFields() throws Exception {
        List<NoteOperation> ops = read("""
                [{"op":"create","path":"shared/a.md","content":"# A"},
                 {"op":"replace_section","path":"shared/a.md","section":"A#B","content":"x"},
                 {"op":"find_replace","path":"shared/a.md","find":"x","replace":"y"},
                 {"op":"set_front_matter","path":"shared/a.md","field":"tags","value":["a","b"]},
                 {"op":"set_front_matter","path":"shared/a.md","field":"n","value":{"k":2}},
                 {"op":"move","path":"shared/a.md","to":"shared/b.md"},
                 {"op":"delete","path":"shared/b.md"}]""");
        assertThat(ops).containsExactly(new NoteOperation.Create("shared/a.md", "# A"),
                new NoteOperation.ReplaceSection("shared/a.md", "A#B", "x"),
                new NoteOperation.FindReplace("shared/a.md", "x", "y"),
                new NoteOperation.SetField("shared/a.md", "tags", List.of("a", "b")),
                new NoteOperation.SetField("shared/a.md", "n", Map.of("k", 2)),
                new NoteOperation.Move("shared/a.md", "shared/b.md"), new NoteOperation.Delete("shared/b.md"));
        assertThat(ops.get(5).alsoWrites()).containsExactly("shared/b.md");
        assertThat(NoteOperations.names()).hasSize(13);
    }

    @Test
    void aBadOperationIsA400NamingItsPlaceAndWhatIsWrong() {
        assertThatThrownBy(() -> read("[]")).isInstanceOf(ApiException.class).hasMessageContaining("non-empty array");
        assertThatThrownBy(() -> read("{\"op\":\"create\"}")).hasMessageContaining("non-empty array");
        assertThatThrownBy(() -> read("[{\"op\":\"rename\",\"path\":\"a.md\"}]"))
                .hasMessageContaining("operations[0].op 'rename' is not one of [create, write");
        assertThatThrownBy(() -> read("[{\"op\":\"delete\",\"path\":\"a.md\"},{\"op\":\"append\",\"path\":\"a.md\"}]"))
                .hasMessageContaining("operations[1].content is required");
        assertThatThrownBy(() -> read("[{\"op\":\"append\",\"path\":\"a.md\",\"content\":3}]"))
                .hasMessageContaining("operations[0].content must be a string");
        assertThatThrownBy(() -> read("[{\"op\":\"delete\",\"path\":\"a.md\",\"force\":true}]"))
                .hasMessageContaining("delete takes [path], not 'force'");
        assertThatThrownBy(() -> read("[" + "{\"op\":\"delete\",\"path\":\"a.md\"},".repeat(100)
                + "{\"op\":\"delete\",\"path\":\"a.md\"}]")).hasMessageContaining("at most 100 operations, got 101");
        assertThatThrownBy(() -> read("[\"delete\"]")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(400));
    }
}
