package io.poimen.memory.grc.edit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextMergeTest {
    static final String BASE = "# Drain\n\n## Before\n\nCordon the node.\n\n## Steps\n\nDrain it.\n\n## After\n\nUncordon.\n";

    @Test
    void changesToDifferentLinesAreBothKept() {
        String vault = BASE.replace("Cordon the node.", "Cordon the node first.");
        String draft = BASE.replace("Uncordon.", "Uncordon and check the pods.");
        TextMerge.Result r = TextMerge.merge(BASE, vault, draft);
        assertThat(r.conflicts()).isFalse();
        assertThat(r.text()).isEqualTo(BASE.replace("Cordon the node.", "Cordon the node first.")
                .replace("Uncordon.", "Uncordon and check the pods."));
    }

    @Test
    void changesToTheSameLinesAreAConflictShowingBothSides() {
        String vault = BASE.replace("Drain it.", "Drain it with --ignore-daemonsets.");
        String draft = BASE.replace("Drain it.", "Drain it with --delete-emptydir-data.");
        TextMerge.Result r = TextMerge.merge(BASE, vault, draft);
        assertThat(r.conflicts()).isTrue();
        assertThat(r.text()).contains("<<<<<<< vault\nDrain it with --ignore-daemonsets.\n=======\n"
                + "Drain it with --delete-emptydir-data.\n>>>>>>> draft\n");
    }

    @Test
    void anUnchangedSideGivesTheOtherSideAsItIs() {
        String draft = BASE + "\nMore.\n";
        assertThat(TextMerge.merge(BASE, BASE, draft)).isEqualTo(new TextMerge.Result(draft, false));
        String vault = BASE.replace("Drain", "Empty");
        assertThat(TextMerge.merge(BASE, vault, BASE)).isEqualTo(new TextMerge.Result(vault, false));
        assertThat(TextMerge.merge(BASE, draft, draft)).isEqualTo(new TextMerge.Result(draft, false));
        // the same change made on both sides merges cleanly
        assertThat(TextMerge.merge(BASE, vault + "x\n", vault + "x\n").conflicts()).isFalse();
    }
}
