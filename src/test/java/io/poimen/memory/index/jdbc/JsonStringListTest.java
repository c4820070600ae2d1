package io.poimen.memory.index.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class JsonStringListTest {

    private final JsonStringList json = new JsonStringList();

    @Property
    void anyListOfStringsRoundTrips(@ForAll List<String> values) {
        assertThat(json.read(json.write(values))).isEqualTo(values);
    }

    @Test
    void nullColumnReadsAsEmptyList() {
        assertThat(json.write(null)).isNull();
        assertThat(json.read(null)).isEmpty();
    }

    @Test
    void textThatIsNotAJsonArrayOfStringsIsRejectedWithTheText() {
        assertThatThrownBy(() -> json.read("a,b")).isInstanceOf(IllegalStateException.class).hasMessageContaining("a,b");
        assertThatThrownBy(() -> json.read("[null]")).isInstanceOf(IllegalStateException.class);
    }
}
