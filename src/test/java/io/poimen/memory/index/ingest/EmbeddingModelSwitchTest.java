package io.poimen.memory.index.ingest;

import io.poimen.memory.cluster.VectorModelCheck;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.embedding.EmbeddingModel;
import io.poimen.memory.Application;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.ChunkEmbedder;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.VectorModel;
import io.poimen.memory.testsupport.ModelFolders;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A hub started with another {@code poimen.embedding.model} than the one that built its vector store re-embeds
 * every chunk, and no query meanwhile compares a query vector with vectors of another model: on the embedded
 * default (H2 file + Lucene) through the start-up ingest, and on the production stores (PostgreSQL + pgvector,
 * OpenSearch; POIMEN_TEST_PG_URL) through the start-up check of a hub that does not ingest at start.
 */
class EmbeddingModelSwitchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MINILM = EmbeddingModelChoice.ALL_MINILM_L6_V2_Q.id();
    private static final String BGE = EmbeddingModelChoice.BGE_SMALL_EN_V15_Q.id();
    private static final String E5 = EmbeddingModelChoice.E5_SMALL_V2_Q.id();
    private static final String QUESTION = "{\"project\":\"poimen\",\"query\":\"how do I fix a pod in CrashLoopBackOff\","
            + "\"search_method\":\"%s\"}";
    private static final String ANSWER = "projects/poimen/debugging/pod-crashes.md";
    /** A few notes of the example vault: the machine embeds every chunk several times per test. */
    private static final List<String> NOTES = List.of(ANSWER, "projects/poimen/decisions/adr-001-pgvector.md",
            "projects/poimen/runbooks/node-drain.md", "shared/concepts/gitops.md");

    @TempDir
    Path dir;
    private Path vault;

    @BeforeEach
    void vault() throws IOException {
        vault = dir.resolve("vault");
        for (String note : NOTES) {
            Path to = vault.resolve(note);
            Files.createDirectories(to.getParent());
            Files.copy(Path.of("examples/vault").resolve(note), to);
        }
    }

    @Test
    void embedded_switchToBge_reembedsAtStartupIngest_andNeverServesHalfAStore() throws Exception {
        List<String> stores = List.of("--poimen.data.dir=" + dir.resolve("data"),
                "--spring.datasource.url=jdbc:h2:file:" + dir.resolve("data/poimen")
                        + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH",
                "--poimen.vault.ingest-on-startup=true");
        switchModels(stores, BGE);
    }

    @Test
    void prod_switchToBge_reembedsAtStartup_andNeverServesHalfAStore() throws Exception {
        switchModels(prodStores(), BGE);
    }

    /** E5 wants "passage: " before every stored chunk and "query: " before the question. */
    @Test
    void prod_switchToE5_reembedsWithItsPassagePrefix_andQueriesWithItsQueryPrefix() throws Exception {
        switchModels(prodStores(), E5);
    }

    /**
     * A team's model folder (here E5's own files and prefixes) is switched to as a built-in model is; replacing its
     * files (BGE's, CLS pooling, under the same name) makes a new model id, so the store is re-embedded again.
     */
    @Test
    void prod_switchToAModelFolder_reembeds_andReplacedFilesReembedAgain() throws Exception {
        EmbeddingModelChoice e5 = EmbeddingModelChoice.E5_SMALL_V2_Q;
        EmbeddingModelChoice bge = EmbeddingModelChoice.BGE_SMALL_EN_V15_Q;
        Path folder = ModelFolders.copyOf(e5, dir.resolve("team-model"), ModelFolders.descriptorOf(e5, "team", "mean"));
        List<String> stores = prodStores();
        String first = EmbeddingModelChoice.of(folder.toString()).id();
        switchModels(stores, folder.toString());

        ModelFolders.copyOf(bge, folder, ModelFolders.descriptorOf(bge, "team", "cls"));
        String second = EmbeddingModelChoice.of(folder.toString()).id();
        assertThat(second).startsWith("team@").isNotEqualTo(first);
        try (ConfigurableApplicationContext hub = hub(stores, folder.toString())) {
            VectorIndex vectors = hub.getBean(VectorIndex.class);
            awaitComplete(vectors);
            assertThat(vectors.model()).isEqualTo(new VectorModel(second, Optional.of(second), true));
            assertAllVectorsOf(hub, folder.toString());
            JsonNode answered = query(hub, "semantic");
            assertThat(answered.path("degraded").size()).isZero();
            assertQueryCarriesPrefix(hub, folder.toString(), answered.path("results").get(0));
        }
    }

    private List<String> prodStores() {
        return List.of("--poimen.data.dir=" + dir.resolve("data"),
                "--spring.datasource.url=" + TestPostgres.freshDatabaseUrl("model_switch"),
                "--poimen.vector.backend=pgvector", "--poimen.lexical.backend=opensearch",
                "--poimen.opensearch.url=" + TestOpenSearch.url(),
                "--poimen.opensearch.index=model-switch-" + UUID.randomUUID(),
                "--poimen.vault.ingest-on-startup=false");
    }

    /** @param target the {@code poimen.embedding.model} setting: a built-in id or a model folder */
    private void switchModels(List<String> stores, String target) throws Exception {
        String targetId = EmbeddingModelChoice.of(target).id();
        int chunks;
        try (ConfigurableApplicationContext minilm = hub(stores, MINILM)) {
            ProducerTemplate producer = minilm.getBean(ProducerTemplate.class);
            producer.requestBody("direct:ingest", vault, IngestReport.class);
            VectorIndex vectors = minilm.getBean(VectorIndex.class);
            assertThat(vectors.model()).isEqualTo(new VectorModel(MINILM, Optional.of(MINILM), true));
            chunks = minilm.getBean(NoteStore.class).allChunks().size();
            assertAllVectorsOf(minilm, MINILM);
        }

        try (ConfigurableApplicationContext bge = hub(stores, target)) {
            VectorIndex vectors = bge.getBean(VectorIndex.class);
            awaitComplete(vectors);
            assertThat(vectors.model().recorded()).contains(targetId);
            assertThat(vectors.count()).isEqualTo(chunks);
            assertAllVectorsOf(bge, target);
            JsonNode answered = query(bge, "semantic");
            assertThat(answered.path("degraded").size()).isZero();
            assertThat(answered.path("results").get(0).path("path").asText()).isEqualTo(ANSWER);
            assertQueryCarriesPrefix(bge, target, answered.path("results").get(0));

            // a re-embedding under way: the semantic branch says so and answers nothing, the hybrid answers lexically
            vectors.clearForModel();
            JsonNode during = query(bge, "hybrid");
            assertThat(during.path("degraded").toString()).contains("semantic");
            assertThat(during.path("degraded_reasons").path("semantic").asText())
                    .contains("being re-embedded with " + targetId);
            assertThat(during.path("results").get(0).path("path").asText()).isEqualTo(ANSWER);
            assertThat(during.path("results").get(0).path("breakdown").path("branches").has("semantic")).isFalse();

            assertThat(bge.getBean(VectorModelCheck.class).reembedIfNeeded()).isEqualTo(chunks);
            assertAllVectorsOf(bge, target);
            assertThat(query(bge, "semantic").path("degraded").size()).isZero();
        }
    }

    /**
     * Each stored chunk's vector is the model's own embedding of its text (after the model's passage prefix; the text
     * as {@link ChunkEmbedder} embeds it, its links' references left out):
     * searching that finds it at cosine ≈ 1.
     */
    private static void assertAllVectorsOf(ConfigurableApplicationContext hub, String model) {
        EmbeddingModel other = EmbeddingModelChoice.of(model.equals(MINILM) ? BGE : MINILM).load(2);
        EmbeddingModel own = hub.getBean(EmbeddingModel.class);
        String passagePrefix = EmbeddingModelChoice.of(model).passagePrefix();
        VectorIndex vectors = hub.getBean(VectorIndex.class);
        List<Chunk> all = hub.getBean(NoteStore.class).allChunks();
        List<String> notOwn = new ArrayList<>();
        for (Chunk c : all) {
            String text = passagePrefix + ChunkEmbedder.embeddingText(c);
            // k = 5: chunks of the same text have the same vector
            List<Hit> hits = vectors.search(own.embed(text).content().vector(), SearchScope.all(), 5);
            if (hits.stream().noneMatch(h -> h.chunkId().equals(c.id()) && h.score() >= 0.999)) {
                notOwn.add(c.id());
            }
        }
        assertThat(notOwn).as("chunks whose vector is not the %s embedding of their text", model).isEmpty();
        // and the other model's vector of a chunk is far from the stored one: the check above can tell them apart
        Chunk first = all.get(0);
        List<Hit> cross = vectors.search(other.embed(ChunkEmbedder.embeddingText(first)).content().vector(),
                SearchScope.all(), 1);
        assertThat(cross.isEmpty() || cross.get(0).score() < 0.9).isTrue();
    }

    /** The semantic score is the cosine of M(prefix + question), not M(question), with the chunk's vector. */
    private static void assertQueryCarriesPrefix(ConfigurableApplicationContext hub, String modelId, JsonNode top)
            throws Exception {
        EmbeddingModel model = hub.getBean(EmbeddingModel.class);
        EmbeddingModelChoice choice = EmbeddingModelChoice.of(modelId);
        String question = JSON.readTree(QUESTION.formatted("semantic")).path("query").asText();
        Chunk chunk = hub.getBean(NoteStore.class).allChunks().stream()
                .filter(c -> c.id().equals(top.path("doc_id").asText())).findFirst().orElseThrow();
        float[] stored = model.embed(choice.passagePrefix() + ChunkEmbedder.embeddingText(chunk))
                .content().vector();
        double withPrefix = cosine(model.embed(choice.queryPrefix() + question).content().vector(), stored);
        double without = cosine(model.embed(question).content().vector(), stored);
        double raw = top.path("breakdown").path("branches").path("semantic").path("raw").asDouble();
        // E5 packs its cosines tightly: the prefix moves this one by about 0.004 (BGE: more than 0.01), so the
        // tolerance is a quarter of that gap, and the raw score still has to sit on the prefixed side of it
        double gap = Math.abs(withPrefix - without);
        assertThat(gap).isGreaterThan(0.002);
        assertThat(raw).isCloseTo(withPrefix, offset(Math.min(0.002, gap / 4)));
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    private static void awaitComplete(VectorIndex vectors) throws InterruptedException {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (!vectors.model().searchable(vectors.count()) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(vectors.model().complete()).as("re-embedding finished").isTrue();
    }

    private static JsonNode query(ConfigurableApplicationContext hub, String method) throws Exception {
        String out = hub.getBean(ProducerTemplate.class).requestBody("direct:query",
                QUESTION.formatted(method).getBytes(StandardCharsets.UTF_8), String.class);
        return JSON.readTree(out);
    }

    private ConfigurableApplicationContext hub(List<String> stores, String model) {
        List<String> args = new ArrayList<>(stores);
        args.addAll(List.of("--poimen.embedding.model=" + model, "--poimen.vault.path=" + vault,
                "--camel.main.routes-reload-enabled=false", "--logging.level.root=WARN",
                "--logging.level.io.poimen.memory.cluster.VectorModelCheck=INFO"));
        return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new));
    }
}
