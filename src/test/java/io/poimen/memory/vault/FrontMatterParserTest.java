package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FrontMatterParserTest {
    private final FrontMatterParser parser = new FrontMatterParser();

    @Test
    void goodFrontMatter() {
        String md = """
                ---
                title: Kubectl cheats
                aliases: [k, kube ctl]
                tags: [K8s, "#Tools"]
                owner: ops
                ---
                # Body
                """;
        FrontMatter fm = parser.parse(md);
        assertThat(fm.error()).isNull();
        assertThat(fm.title()).isEqualTo("Kubectl cheats");
        assertThat(fm.aliases()).containsExactly("k", "kube ctl");
        assertThat(fm.tags()).containsExactly("k8s", "tools");
        assertThat(fm.raw()).containsEntry("owner", "ops");
        assertThat(parser.body(md)).isEqualTo("# Body\n");
    }

    @Test
    void tagsAsStringCommaOrSpaceSeparated() {
        assertThat(parser.parse("---\ntags: '#Ops, k8s  debugging'\n---\n").tags())
                .containsExactly("ops", "k8s", "debugging");
        assertThat(parser.parse("---\ntag: single\n---\n").tags()).containsExactly("single");
        assertThat(parser.parse("---\ntags:\n  - a/b\n  - A/B\n  - \n---\n").tags()).containsExactly("a/b");
    }

    @Test
    void aliasAsString() {
        assertThat(parser.parse("---\naliases: kube\n---\n").aliases()).containsExactly("kube");
    }

    @Test
    void brokenYamlSetsErrorAndKeepsBody() {
        String md = "---\ntitle: [unclosed\ntags: x\n---\nbody text\n";
        FrontMatter fm = parser.parse(md);
        assertThat(fm.error()).startsWith("front matter is not valid YAML");
        assertThat(fm.title()).isNull();
        assertThat(fm.tags()).isEmpty();
        assertThat(fm.raw()).isEmpty();
        assertThat(parser.body(md)).isEqualTo("body text\n");
    }

    @Test
    void scalarFrontMatterIsAnError() {
        assertThat(parser.parse("---\njust text\n---\n").error()).isEqualTo("front matter is not a YAML mapping");
    }

    @Test
    void noFrontMatterOrUnclosedBlock() {
        assertThat(parser.parse("# Title\n")).isEqualTo(FrontMatter.EMPTY);
        String unclosed = "---\ntitle: x\nno end";
        assertThat(parser.parse(unclosed)).isEqualTo(FrontMatter.EMPTY);
        assertThat(parser.body(unclosed)).isEqualTo(unclosed);
        assertThat(parser.parse("---\n---\nbody")).isEqualTo(FrontMatter.EMPTY);
        assertThat(parser.body("---\n---\nbody")).isEqualTo("body");
    }
}
