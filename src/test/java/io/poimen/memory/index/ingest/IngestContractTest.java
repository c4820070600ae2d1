package io.poimen.memory.index.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.vault.Terms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.util.FileSystemUtils;

/**
 * The ingest route on the example vault, the same for every store profile: full ingest, a one-file change,
 * a deletion and bad files. Subclasses choose the stores.
 */
@Import(CountingModelConfig.class)
abstract class IngestContractTest {
    static final Path EXAMPLE_VAULT = Path.of("examples/vault");

    @Autowired ProducerTemplate producer;
    @Autowired NoteStore notes;
    @Autowired VectorIndex vectors;
    @Autowired LexicalIndex lexical;
    @Autowired TfIdfIndex tfidf;
    @Autowired CountingEmbeddingModel model;

    abstract Path vault();

    IngestReport ingest() {
        return producer.requestBody("direct:ingest", vault(), IngestReport.class);
    }

    @BeforeEach
    void freshVaultCopy() throws IOException {
        FileSystemUtils.deleteRecursively(vault());
        FileSystemUtils.copyRecursively(EXAMPLE_VAULT, vault());
        ingest();
        model.reset();
    }

    static long markdownFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".md")).count();
        }
    }

    @Test
    void indexesEveryNoteInAllThreeIndexesAndReportsUnresolvedLinks() throws IOException {
        IngestReport again = ingest();
        long md = markdownFiles(vault());
        assertThat(again.notes()).isEqualTo(md);
        assertThat(again.changed()).as("nothing changed since the last run").isZero();
        assertThat(model.texts()).isZero();
        long chunks = notes.allChunks().size();
        assertThat(chunks).isGreaterThan(md);
        assertThat(vectors.count()).isEqualTo(chunks);
        assertThat(lexical.count()).isEqualTo(chunks);
        assertThat(tfidf.size()).isEqualTo(chunks);
        assertThat(again.unresolvedLinks()).anyMatch(u -> u.contains("future-notes/observability-plan"));
        assertThat(again.problems()).isEmpty();
    }

    @Test
    void aOneFileChangeReEmbedsThatFileOnly() throws IOException {
        Path note = vault().resolve("projects/poimen/tools/kubectl.md");
        Files.writeString(note, "\n## Zanzibar flag\n\nThe quokkaflux option prints zanzibar diagnostics.\n",
                StandardOpenOption.APPEND);
        IngestReport report = ingest();
        int kubectlChunks = (int) notes.allChunks().stream()
                .filter(c -> c.path().equals("projects/poimen/tools/kubectl.md")).count();
        assertThat(report.changed()).isEqualTo(1);
        assertThat(report.chunks()).isEqualTo(kubectlChunks);
        assertThat(model.texts()).isEqualTo(kubectlChunks);
        assertThat(lexical.search("quokkaflux", SearchScope.all(), 5)).first()
                .satisfies(h -> assertThat(h.chunkId()).startsWith("projects/poimen/tools/kubectl.md#"));
        assertThat(tfidf.search(Terms.analyze("quokkaflux zanzibar"), "poimen", null, 5)).isNotEmpty();
        assertThat(vectors.count()).isEqualTo(notes.allChunks().size());
    }

    @Test
    void anEmbedOfAFileThatIsNotThereIsReportedLikeAnUnresolvedLinkAndOneThatIsThereIsNot() throws IOException {
        Files.writeString(vault().resolve("projects/poimen/memories/diagrams.md"), """
                # Diagrams

                ![[cluster-diagram.png|300]] ![layout](../attachments/cluster-diagram.png)
                ![[rack-photo-that-was-never-added.jpg]] ![flow](../attachments/flow-not-there.svg)
                """);
        IngestReport report = ingest();
        assertThat(report.unresolvedLinks()).contains(
                "projects/poimen/memories/diagrams.md -> [[rack-photo-that-was-never-added.jpg]]",
                "projects/poimen/memories/diagrams.md -> [flow](../attachments/flow-not-there.svg)");
        assertThat(report.unresolvedLinks()).noneMatch(u -> u.contains("cluster-diagram"));
    }

    @Test
    void aDeletedFileLeavesEveryIndex() throws IOException {
        String path = "projects/poimen/memories/ownership.md";
        long before = vectors.count();
        int its = (int) notes.allChunks().stream().filter(c -> c.path().equals(path)).count();
        Files.delete(vault().resolve(path));
        IngestReport report = ingest();
        assertThat(report.removed()).isEqualTo(1);
        assertThat(notes.note(path)).isEmpty();
        assertThat(vectors.count()).isEqualTo(before - its);
        assertThat(lexical.count()).isEqualTo(before - its);
        assertThat(tfidf.size()).isEqualTo((int) (before - its));
        assertThat(notes.allChunks()).noneMatch(c -> c.path().equals(path));
        assertThat(report.unresolvedLinks()).as("links to the deleted note are now unresolved")
                .anyMatch(u -> u.contains("ownership"));
    }

    @Test
    void badFilesAreReportedByPathAndLoseNothing() throws IOException {
        Path kubectl = vault().resolve("projects/poimen/tools/kubectl.md");
        long kubectlChunks = notes.allChunks().stream().filter(c -> c.path().endsWith("tools/kubectl.md")).count();
        Files.write(kubectl, new byte[] {'#', ' ', (byte) 0xC3, (byte) 0x28, 'x'}); // invalid UTF-8
        Files.write(vault().resolve("projects/poimen/binary.md"), new byte[] {'a', 0, 1, 2, 0, 'b'});
        Files.write(vault().resolve("projects/poimen/huge.md"), new byte[6 * 1024 * 1024]);
        Files.writeString(vault().resolve("projects/poimen/broken-front-matter.md"),
                "---\ntitle: [unclosed\n---\n# Broken\n\nStill indexed: xylophonic body text.\n");
        IngestReport report = ingest();
        assertThat(report.problems()).extracting(IngestProblem::path).contains(
                "projects/poimen/tools/kubectl.md", "projects/poimen/binary.md", "projects/poimen/huge.md",
                "projects/poimen/broken-front-matter.md");
        assertThat(notes.allChunks().stream().filter(c -> c.path().endsWith("tools/kubectl.md")).count())
                .as("the previous kubectl.md stays indexed").isEqualTo(kubectlChunks);
        assertThat(notes.note("projects/poimen/broken-front-matter.md")).isPresent();
        assertThat(lexical.search("xylophonic", SearchScope.all(), 3)).isNotEmpty();
        assertThat(notes.note("projects/poimen/binary.md")).isEmpty();
        assertThat(Files.readString(vault().resolve("projects/poimen/broken-front-matter.md"),
                StandardCharsets.UTF_8)).contains("xylophonic");
    }

    @Test
    void aBadFileNameAFifoAndASymlinkAreReportedByPathAndTheRestIsIngested() throws Exception {
        Path folder = vault().resolve("projects/poimen/memories");
        // a name that is not UTF-8, created from raw bytes (Linux file names are bytes)
        byte[] raw = (folder.toAbsolutePath() + "/bad\u0001name.md").getBytes(StandardCharsets.UTF_8);
        raw[raw.length - "name.md".length() - 1] = (byte) 0xff;
        Process touch = new ProcessBuilder("python3", "-c",
                "import sys; open(bytes.fromhex(sys.argv[1]), 'w').write('# bad')",
                java.util.HexFormat.of().formatHex(raw)).inheritIO().start();
        assertThat(touch.waitFor()).isZero();
        Process fifo = new ProcessBuilder("mkfifo", folder.resolve("pipe.md").toString()).inheritIO().start();
        assertThat(fifo.waitFor()).isZero();
        Files.createSymbolicLink(folder.resolve("link.md"), folder.resolve("ownership.md").toAbsolutePath());
        Files.writeString(folder.resolve("fresh-note.md"), "# Fresh\n\nThe glimmerwort note arrived after the bad ones.\n");

        IngestReport report = ingest();

        assertThat(report.problems()).extracting(IngestProblem::path).contains(
                "projects/poimen/memories/pipe.md", "projects/poimen/memories/link.md");
        assertThat(report.problems()).anySatisfy(p -> {
            assertThat(p.path()).startsWith("projects/poimen/memories/bad").endsWith("name.md");
            assertThat(p.reason()).contains("not valid UTF-8");
        });
        assertThat(report.problems()).filteredOn(p -> p.path().endsWith("pipe.md"))
                .singleElement().satisfies(p -> assertThat(p.reason()).contains("not a regular file"));
        assertThat(report.changed()).isEqualTo(1);
        assertThat(notes.note("projects/poimen/memories/fresh-note.md")).isPresent();
        assertThat(lexical.search("glimmerwort", SearchScope.all(), 3)).isNotEmpty();
        assertThat(notes.notes()).noneMatch(n -> n.path().contains("bad") || n.path().endsWith("pipe.md")
                || n.path().endsWith("link.md"));
    }

    @Test
    void aNoteWithTensOfThousandsOfHeadingsIsCappedAndReported() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            text.append("# h").append(i).append("\nx\n");
        }
        assertThat(text.length()).isGreaterThan(500_000);
        String path = "projects/poimen/memories/many-headings.md";
        Files.writeString(vault().resolve(path), text);

        IngestReport report = ingest();

        long chunks = notes.allChunks().stream().filter(c -> c.path().equals(path)).count();
        assertThat(chunks).isEqualTo(500);
        assertThat(report.chunks()).isEqualTo(500);
        assertThat(report.problems()).filteredOn(p -> p.path().equals(path)).singleElement()
                .satisfies(p -> assertThat(p.reason()).contains("only the first 500 are indexed"));
    }
}
