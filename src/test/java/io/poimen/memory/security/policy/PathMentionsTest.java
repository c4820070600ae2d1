package io.poimen.memory.security.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.junit.jupiter.api.Test;

class PathMentionsTest {
    static final Set<String> VAULT = Set.of("README.md", "projects/ml/secret.md", "shared/ok.md",
            "projects/poimen/a.md", "roadmap-2027.md", "templates/daily.md", "projects/ml/My Plan.md",
            "projects/ml/secret/plan.md", "shared/concepts/gitops.md");
    static final AtomicLong FORMS = new AtomicLong();

    @Test
    void hidesOnlyThePathsTheCallerMayNotRead() {
        String text = "checkout conflict with projects/ml/secret.md, shared/ok.md and projects/poimen/a.md;"
                + " see (projects/ml/x/y.md) not myprojects/ml/z.md";
        assertThat(PathMentions.withoutDenied(text, VAULT, p -> !p.startsWith("projects/ml/")))
                .isEqualTo("checkout conflict with [path hidden], shared/ok.md and projects/poimen/a.md;"
                        + " see ([path hidden]) not myprojects/ml/z.md");
    }

    @Test
    void everyVaultNotePathIsHiddenWhereverItSitsNotOnlyUnderProjectsAndShared() {
        Set<String> denied = Set.of("README.md", "roadmap-2027.md", "templates/daily.md", "projects/ml/My Plan.md");
        String text = "Update README.md. Merge conflict in roadmap-2027.md:12, see [[roadmap-2027]] and "
                + "[[templates/daily|the template]] or ./README.md#Setup; also projects/ml/My Plan.md and "
                + "'notes/gone.md'; the roadmap stays a word, README is the note's name; shared/ok.md is fine.";
        assertThat(PathMentions.withoutDenied(text, VAULT, p -> !denied.contains(p) && !p.equals("notes/gone.md")))
                .isEqualTo("Update [path hidden]. Merge conflict in [path hidden]:12, see [[[path hidden]]] and "
                        + "[[[path hidden]|the template]] or [path hidden]; also [path hidden] and "
                        + "'[path hidden]'; the roadmap stays a word, [path hidden] is the note's name; shared/ok.md is fine.");
    }

    @Test
    void relativeBareCaseEncodedAndLookAlikeFormsAreHiddenToo() {
        String text = "moved ../secret/plan.md and ./plan.md, see [[plan]], [[plan|the plan]], [[plan#Goals]], "
                + "![[secret/plan]], PROJECTS/ML/SECRET/PLAN.MD, Projects/Ml/Secret.md, projects%2Fml%2Fsecret.md, "
                + "projects%252Fml%252Fsecret.md, projects\u2215ml\u2215secret.md, projects\u2044ml\u2044secret.md, "
                + "projects\uFF0Fml\uFF0Fsecret.md, projects\\ml\\secret.md, [[GITOPS]] stays, plan stays a word.";
        assertThat(PathMentions.withoutDenied(text, VAULT, p -> !p.toLowerCase(Locale.ROOT).startsWith("projects/ml/")))
                .isEqualTo("moved [path hidden] and [path hidden], see [[[path hidden]]], [[[path hidden]|the plan]], "
                        + "[[[path hidden]]], ![[[path hidden]]], [path hidden], [path hidden], [path hidden], "
                        + "[path hidden], [path hidden], [path hidden], "
                        + "[path hidden], [path hidden], [[GITOPS]] stays, plan stays a word.");
    }

    @Test
    void aWholeValueIsReadAsOneMention() {
        assertThat(PathMentions.named("Projects%2FML%2Fsecret.md", VAULT)).contains("projects/ml/secret.md");
        assertThat(PathMentions.named("../secret/plan", VAULT)).containsExactly("projects/ml/secret/plan.md");
        assertThat(PathMentions.named("a sentence with projects/ml/secret.md", VAULT)).isEmpty();
        assertThat(PathMentions.named("score", VAULT)).isEmpty();
    }

    @Test
    void textWithoutPathsAndNullStayAsTheyAre() {
        assertThat(PathMentions.withoutDenied("no paths here", VAULT, p -> false)).isEqualTo("no paths here");
        assertThat(PathMentions.withoutDenied(null, VAULT, p -> false)).isNull();
    }

    /** A generated vault of notes with distinct file names: one denied, one readable. */
    record Case(String denied, String readable, int form, int caseChange, int slash, String before, String after) {
    }

    /**
     * Every generated form of a denied note's path (relative, bare wiki-link name with alias or heading, another
     * case, %2F once or twice, a slash look-alike) between random words is hidden; the same form of a readable note
     * stays as written.
     */
    @Property(tries = 3000)
    void everyFormOfADeniedPathIsHiddenAndOfAReadableOneKept(@ForAll("cases") Case c) {
        Set<String> vault = Set.of(c.denied(), c.readable(), "README.md");
        String deniedForm = form(c.denied(), c);
        String text = c.before() + " " + deniedForm + " " + c.after();
        String shown = PathMentions.withoutDenied(text, vault, p -> !p.equals(c.denied())
                && !p.toLowerCase(Locale.ROOT).equals(c.denied().toLowerCase(Locale.ROOT)));
        assertThat(shown).as(text).contains(PathMentions.HIDDEN).doesNotContain(core(deniedForm));
        String readableText = c.before() + " " + form(c.readable(), c) + " " + c.after();
        assertThat(PathMentions.withoutDenied(readableText, vault, p -> !p.equals(c.denied())))
                .as("no over-hiding").isEqualTo(readableText);
        FORMS.incrementAndGet();
    }

    @AfterContainer
    static void report() {
        System.out.println("path mention forms: " + FORMS.get() + " generated texts, 0 leaks, 0 over-hidden");
    }

    /** The mention without wiki brackets, alias and heading: what must not be left in the text. */
    static String core(String form) {
        String f = form.replaceFirst("^!?\\[\\[", "").replaceFirst("]]$", "");
        f = f.replaceFirst("[|#].*$", "");
        return f;
    }

    static String form(String path, Case c) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        String stem = name.substring(0, name.length() - 3);
        String parent = path.substring(0, path.lastIndexOf('/'));
        String folder = parent.substring(parent.lastIndexOf('/') + 1);
        String f = switch (c.form()) {
            case 0 -> path;
            case 1 -> path.substring(0, path.length() - 3);
            case 2 -> "../" + folder + "/" + name;
            case 3 -> "./" + name;
            case 4 -> "[[" + stem + "]]";
            case 5 -> "[[" + stem + "|shown words]]";
            case 6 -> "[[" + stem + "#Some heading]]";
            case 7 -> "![[" + folder + "/" + stem + "]]";
            case 8 -> name;
            default -> "../../" + folder + "/" + stem;
        };
        f = switch (c.caseChange()) {
            case 1 -> f.toUpperCase(Locale.ROOT);
            case 2 -> swapFirstLetters(f);
            default -> f;
        };
        String slash = switch (c.slash()) {
            case 1 -> "%2F";
            case 2 -> "%252F";
            case 3 -> "\u2215";
            case 4 -> "\u2044";
            case 5 -> "\uFF0F";
            case 6 -> "%2f";
            default -> "/";
        };
        // the slash form replaces the slashes of the path part, not the ../ of a relative form
        String lead = f.startsWith("../../") ? "../../" : f.startsWith("../") ? "../" : f.startsWith("./") ? "./" : "";
        return lead + f.substring(lead.length()).replace("/", slash);
    }

    static String swapFirstLetters(String s) {
        StringBuilder b = new StringBuilder(s);
        for (int i = 0; i < b.length(); i++) {
            char ch = b.charAt(i);
            if (Character.isLetter(ch)) {
                b.setCharAt(i, Character.isUpperCase(ch) ? Character.toLowerCase(ch) : Character.toUpperCase(ch));
                break;
            }
        }
        return b.toString();
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<String> segment = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(3).ofMaxLength(8);
        Arbitrary<String> path = Combinators.combine(Arbitraries.of("projects/", "shared/", "private/", ""),
                segment, segment, segment).as((top, a, b, n) -> top + a + "/" + b + "/" + n + ".md");
        Arbitrary<String> words = Arbitraries.of("fixed", "see", "merge conflict in", "(", "'", "-", "and",
                "commit:", "100%", "a/b", "x.y").list().ofMaxSize(4).map(l -> String.join(" ", l));
        return Combinators.combine(path, path, Arbitraries.integers().between(0, 9),
                        Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 6), words, words)
                .as(Case::new)
                .filter(c -> !name(c.denied()).equals(name(c.readable()))
                        && !folderOf(c.denied()).equals(folderOf(c.readable())));
    }

    static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    static String folderOf(String path) {
        String parent = path.substring(0, path.lastIndexOf('/'));
        return parent.substring(parent.lastIndexOf('/') + 1);
    }
}
