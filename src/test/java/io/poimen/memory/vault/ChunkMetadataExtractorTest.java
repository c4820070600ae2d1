package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChunkMetadataExtractorTest {
    private final ChunkMetadataExtractor extractor = new ChunkMetadataExtractor();

    @Test
    void notesExampleIsAnErrorWithItsIdentifierAsKeyTerm() {
        String text = """
                ## Pod Crashes in CrashLoopBackOff
                When a Kubernetes pod enters CrashLoopBackOff status,
                it means the container is crashing repeatedly.
                """;
        ChunkMetadata m = extractor.extract("Pod Crashes in CrashLoopBackOff", text, "projects/poimen/debugging/pods.md");
        assertThat(m.heading()).isEqualTo("Pod Crashes in CrashLoopBackOff");
        assertThat(m.category()).isEqualTo(ChunkMetadata.ERROR);
        assertThat(m.firstSentence())
                .isEqualTo("When a Kubernetes pod enters CrashLoopBackOff status, it means the container is crashing repeatedly.");
        assertThat(m.keyTerms()).contains("crashloopbackoff", Terms.term("Crashes"), "pod");
        assertThat(m.keyTerms()).doesNotContain("in", "when", "it", "status");
    }

    @Test
    void identifiersPortsAndToolsFromFirstSentence() {
        ChunkMetadata m = extractor.extract("Memory limits",
                "## Memory limits\nThe pod was OOMKilled on port 8080 after kubectl apply of kube-proxy config.",
                "projects/poimen/notes.md");
        assertThat(m.keyTerms()).contains("memori", "limit", Terms.term("OOMKilled"), "8080", "kubectl", "kube");
        assertThat(m.keyTerms()).doesNotContain("pod", "appli", "config");
        assertThat(m.category()).isEqualTo(ChunkMetadata.ERROR);
    }

    @Test
    void categoryRulesInOrder() {
        assertThat(extractor.extract("How to roll back", "Steps below.", "x.md").category())
                .isEqualTo(ChunkMetadata.SOLUTION);
        assertThat(extractor.extract("Workaround", "Pin the version.", "x.md").category())
                .isEqualTo(ChunkMetadata.SOLUTION);
        assertThat(extractor.extract("kubectl logs", "Shows container output.", "x.md").category())
                .isEqualTo(ChunkMetadata.TOOL);
        assertThat(extractor.extract("Overview", "A pod is a group of containers.", "projects/p/tools/x.md")
                .category()).isEqualTo(ChunkMetadata.TOOL);
        assertThat(extractor.extract("Overview", "Example:\n```\na\nb\nc\n```", "x.md").category())
                .isEqualTo(ChunkMetadata.TOOL);
        assertThat(extractor.extract("Ownership", "Every value has one owner.", "x.md").category())
                .isEqualTo(ChunkMetadata.CONCEPT);
        assertThat(extractor.extract("Overview", "The build failed with an exception.", "x.md").category())
                .isEqualTo(ChunkMetadata.ERROR);
        assertThat(extractor.extract("Meeting room", "Zoom bloom.", "x.md").category())
                .isEqualTo(ChunkMetadata.CONCEPT);
    }

    @Test
    void firstSentenceSkipsCodeAndMarkupAndIsCapped() {
        String text = "## H\n```\ncode first\n```\n- **Bold** [[target|alias]] and `snake_case_name` here! More.";
        assertThat(extractor.extract("H", text, "x.md").firstSentence())
                .isEqualTo("Bold alias and snake_case_name here!");
        String longText = "word ".repeat(50);
        assertThat(extractor.extract("H", longText, "x.md").firstSentence().split(" ")).hasSize(30);
        assertThat(extractor.extract("H", "## H\n", "x.md").firstSentence()).isEmpty();
    }
}
