package io.poimen.memory.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AvailabilityTest {

    @Test
    void withoutACoolDownAFailedDependencyIsTriedAgainAtOnce() {
        Availability store = new Availability(0);
        for (int i = 0; i < 1_000; i++) {
            store.failed("down");
            assertThat(store.available()).as("try %d, in the millisecond of the failure", i).isTrue();
        }
    }

    @Test
    void aCoolDownKeepsItAsideUntilASuccess() {
        Availability store = new Availability(60_000);
        assertThat(store.available()).isTrue();
        store.failed("down");
        assertThat(store.available()).isFalse();
        assertThat(store.lastFailure()).isEqualTo("down");
        store.succeeded();
        assertThat(store.available()).isTrue();
    }
}
