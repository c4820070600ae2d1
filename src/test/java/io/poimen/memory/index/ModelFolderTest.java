package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.config.StartRefusedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The descriptor of a model folder is read strictly (every mistake names the file, and the key with its line), and
 * the id a folder model records in the vector stores changes exactly when what its stored vectors depend on does.
 * The files here are not a real model: reading the folder does not load it ({@link FolderModelVectorsTest} does).
 */
class ModelFolderTest {
    private static final String GOOD = """
            name: team-e5
            pooling: mean
            dimensions: 384
            query_prefix: "query: "
            passage_prefix: "passage: "
            """;

    @TempDir
    Path dir;
    private Path folder;

    @BeforeEach
    void folder() throws IOException {
        folder = Files.createDirectories(dir.resolve("model"));
        Files.write(folder.resolve("model.onnx"), new byte[] {1, 2, 3});
        Files.writeString(folder.resolve("tokenizer.json"), "{}");
        descriptor(GOOD);
    }

    private void descriptor(String text) throws IOException {
        Files.writeString(folder.resolve(ModelFolder.DESCRIPTOR), text);
    }

    @Test
    void aGoodFolderGivesItsPrefixesPoolingSizeAndAnIdOfNameAndDigest() {
        EmbeddingModelChoice m = EmbeddingModelChoice.of(folder.toString());
        assertThat(m.id()).matches("team-e5@[0-9a-f]{12}");
        assertThat(m.queryPrefix()).isEqualTo("query: ");
        assertThat(m.passagePrefix()).isEqualTo("passage: ");
        assertThat(m.pooling()).isEqualTo(dev.langchain4j.model.embedding.onnx.PoolingMode.MEAN);
        assertThat(m.dimensions()).isEqualTo(384);
        assertThat(m.folder()).isEqualTo(folder);
        assertThat(EmbeddingModelChoice.of(" " + folder + " ").id()).as("read again: the same id").isEqualTo(m.id());
    }

    @Test
    void theIdChangesWithTheModelFileTokenizerPoolingPassagePrefixAndName_notWithTheQueryPrefix() throws IOException {
        String id = EmbeddingModelChoice.of(folder.toString()).id();
        descriptor(GOOD.replace("query: ", "question: "));
        assertThat(EmbeddingModelChoice.of(folder.toString()).id()).as("query prefix: stored vectors unchanged")
                .isEqualTo(id);
        descriptor(GOOD.replace("passage: ", "doc: "));
        assertThat(EmbeddingModelChoice.of(folder.toString()).id()).isNotEqualTo(id);
        descriptor(GOOD.replace("mean", "cls"));
        assertThat(EmbeddingModelChoice.of(folder.toString()).id()).isNotEqualTo(id);
        descriptor(GOOD.replace("team-e5", "team-e5b"));
        assertThat(EmbeddingModelChoice.of(folder.toString()).id()).startsWith("team-e5b@").endsWith(id.substring(8));
        descriptor(GOOD);
        Files.write(folder.resolve("model.onnx"), new byte[] {1, 2, 4});
        String otherModel = EmbeddingModelChoice.of(folder.toString()).id();
        assertThat(otherModel).isNotEqualTo(id);
        Files.writeString(folder.resolve("tokenizer.json"), "{ }");
        assertThat(EmbeddingModelChoice.of(folder.toString()).id()).isNotEqualTo(otherModel).isNotEqualTo(id);
    }

    @Test
    void theScriptsAModelReadsAreDeclaredInItsDescriptorAndEveryBuiltInReadsLatin() throws IOException {
        assertThat(EmbeddingModelChoice.of(folder.toString()).scripts()).as("not declared").isEqualTo(ModelScripts.ANY);
        descriptor(GOOD + "scripts: [latin, Hani, hiragana, katakana]\n");
        ModelScripts declared = EmbeddingModelChoice.of(folder.toString()).scripts();
        assertThat(declared.scripts()).containsExactlyInAnyOrder(Character.UnicodeScript.LATIN,
                Character.UnicodeScript.HAN, Character.UnicodeScript.HIRAGANA, Character.UnicodeScript.KATAKANA);
        assertThat(declared.reads("東京都の人口はいくつですか")).isTrue();
        assertThat(EmbeddingModelChoice.builtIns()).allSatisfy(m -> assertThat(m.scripts()).isEqualTo(ModelScripts.LATIN));
    }

    @Test
    void otherFileNamesInTheFolderMayBeNamed() throws IOException {
        Files.move(folder.resolve("model.onnx"), folder.resolve("model_quantized.onnx"));
        assertThatThrownBy(() -> EmbeddingModelChoice.of(folder.toString())).isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("model.onnx not found in the folder (key 'model' of");
        descriptor(GOOD + "model: model_quantized.onnx\n");
        assertThat(EmbeddingModelChoice.of(folder.toString()).id()).startsWith("team-e5@");
    }

    /** What replaces which text of the good descriptor, and what the error must say (file, line, key). */
    static Stream<Arguments> badDescriptors() {
        return Stream.of(
                Arguments.of("pooling: mean", "pooling: max",
                        "poimen-model.yaml:2: key 'pooling': must be mean or cls, got 'max'"),
                Arguments.of("dimensions: 384", "dimensions: \"384\"",
                        "poimen-model.yaml:3: key 'dimensions': must be a whole number from 1 to 4096, got 384"),
                Arguments.of("dimensions: 384", "dimensions: 0", "poimen-model.yaml:3: key 'dimensions': must be a whole"),
                Arguments.of("dimensions: 384", "dimensions: 384\nnormalise: true",
                        "poimen-model.yaml:4: unknown key 'normalise'"),
                Arguments.of("dimensions: 384", "dimensions: 384\nnormalize: false",
                        "poimen-model.yaml:4: key 'normalize': false is not supported"),
                Arguments.of("dimensions: 384", "dimensions: 384\nnormalize: yes please",
                        "poimen-model.yaml:4: key 'normalize': must be true or false"),
                Arguments.of("name: team-e5", "name: ../evil",
                        "poimen-model.yaml:1: key 'name': must be a letter or digit"),
                Arguments.of("name: team-e5", "name: 42", "poimen-model.yaml:1: key 'name': must be text, got 42"),
                Arguments.of("dimensions: 384", "dimensions: 384\nmodel: ../other/model.onnx",
                        "poimen-model.yaml:4: key 'model': must be the name of a file in the folder itself"),
                Arguments.of("dimensions: 384", "dimensions: 384\nversion: 2",
                        "poimen-model.yaml:4: key 'version': must be 1"),
                Arguments.of("dimensions: 384", "dimensions: 384\nscripts: latin",
                        "poimen-model.yaml:4: key 'scripts': must be a list of script names such as [latin, han]"),
                Arguments.of("dimensions: 384", "dimensions: 384\nscripts: [latin, klingon]",
                        "poimen-model.yaml:4: key 'scripts': unknown script 'klingon'"),
                Arguments.of("pooling: mean", "pooling: [mean", "not valid YAML"),
                Arguments.of("name: team-e5\n", "", "poimen-model.yaml: key 'name' is required"),
                Arguments.of("pooling: mean\n", "", "poimen-model.yaml: key 'pooling' is required"),
                Arguments.of("dimensions: 384\n", "", "poimen-model.yaml: key 'dimensions' is required"));
    }

    @ParameterizedTest
    @MethodSource("badDescriptors")
    void aBadDescriptorStopsTheStartNamingTheFileAndKey(String good, String bad, String expected) throws IOException {
        assertThat(GOOD).contains(good);
        descriptor(GOOD.replace(good, bad));
        assertThatThrownBy(() -> EmbeddingModelChoice.of(folder.toString()))
                .isInstanceOf(StartRefusedException.class)
                .hasMessageStartingWith("poimen.embedding.model=" + folder + ": ")
                .hasMessageContaining(expected);
    }

    @Test
    void aFolderWithoutDescriptorOrFilesAndANameThatIsNoFolderAreRefusedClearly() throws IOException {
        Files.delete(folder.resolve(ModelFolder.DESCRIPTOR));
        assertThatThrownBy(() -> EmbeddingModelChoice.of(folder.toString())).isInstanceOf(StartRefusedException.class)
                .hasMessage("poimen.embedding.model=" + folder + ": no poimen-model.yaml in the folder");
        descriptor(GOOD);
        Files.delete(folder.resolve("tokenizer.json"));
        assertThatThrownBy(() -> EmbeddingModelChoice.of(folder.toString())).isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("tokenizer.json not found in the folder (key 'tokenizer' of");
        assertThatThrownBy(() -> EmbeddingModelChoice.of(dir.resolve("nowhere").toString()))
                .isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("neither one of [all-minilm-l6-v2-q, bge-small-en-v1.5-q, e5-small-v2-q] nor a folder");
    }
}
