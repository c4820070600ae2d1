package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.Character.UnicodeScript;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whether an embedding model reads a query: by the script of most of its letters. */
class ModelScriptsTest {

    @Test
    void aLatinModelReadsEnglishAndFrenchButNotJapaneseArabicOrChinese() {
        ModelScripts latin = ModelScripts.LATIN;
        assertThat(latin.reads("why does the pod restart after an OOMKilled event?")).isTrue();
        assertThat(latin.reads("pourquoi le pod redémarre-t-il après un arrêt ?")).isTrue();
        assertThat(latin.reads("冬が終わり春が近づくにつれ、勢力が弱くなり、次第に北上していく気団は?")).isFalse();
        assertThat(latin.reads("متى ولد حمزة بن عبد المطلب؟")).isFalse();
        assertThat(latin.reads("东京的人口是多少")).isFalse();
    }

    @Test
    void mostLettersDecideAMixedQuery() {
        // "Kubernetes" (10 Latin letters) in a Japanese question of 14 Japanese letters: not read
        assertThat(ModelScripts.LATIN.reads("Kubernetesのポッドが再起動を繰り返す理由は")).isFalse();
        // a Japanese name (2 letters) in an English question: read
        assertThat(ModelScripts.LATIN.reads("what did 東京 decide about the budget")).isTrue();
        // half and half counts as read
        assertThat(ModelScripts.LATIN.reads("ab 東京")).isTrue();
    }

    @Test
    void noLettersOrNoDeclarationReadsEverything() {
        assertThat(ModelScripts.LATIN.reads("2024-05-01 12:00 #42")).isTrue();
        assertThat(ModelScripts.LATIN.reads("")).isTrue();
        assertThat(ModelScripts.ANY.reads("冬が終わり春が近づく")).isTrue();
    }

    @Test
    void scriptsAreNamedAsJavaOrIso15924NamesThemAndAnUnknownOneIsRefused() {
        assertThat(ModelScripts.of(List.of("latin", "Hani", " HIRAGANA ")).scripts())
                .containsExactlyInAnyOrder(UnicodeScript.LATIN, UnicodeScript.HAN, UnicodeScript.HIRAGANA);
        assertThat(ModelScripts.of(List.of("arabic")).reads("متى ولد حمزة بن عبد المطلب؟")).isTrue();
        assertThatThrownBy(() -> ModelScripts.of(List.of("latin", "elvish")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown script 'elvish'");
    }
}
