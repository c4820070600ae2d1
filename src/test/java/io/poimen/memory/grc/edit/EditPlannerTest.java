package io.poimen.memory.grc.edit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.grc.edit.NoteOperation.Append;
import io.poimen.memory.grc.edit.NoteOperation.Create;
import io.poimen.memory.grc.edit.NoteOperation.Delete;
import io.poimen.memory.grc.edit.NoteOperation.FindReplace;
import io.poimen.memory.grc.edit.NoteOperation.InsertAfterSection;
import io.poimen.memory.grc.edit.NoteOperation.InsertBeforeSection;
import io.poimen.memory.grc.edit.NoteOperation.Move;
import io.poimen.memory.grc.edit.NoteOperation.Prepend;
import io.poimen.memory.grc.edit.NoteOperation.RemoveField;
import io.poimen.memory.grc.edit.NoteOperation.Replace;
import io.poimen.memory.grc.edit.NoteOperation.ReplaceSection;
import io.poimen.memory.grc.edit.NoteOperation.SetField;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;

class EditPlannerTest {
    static final String RUNBOOK = """
            ---
            title: Pod crashes
            # owner: platform
            tags:
            - k8s
            - pods
            ---
            # Pod crashes

            Intro text.

            ## Causes

            Bad config.

            ### Probes

            A failing liveness probe.

            ## Fixes

            ```bash
            # not a heading
            kubectl describe pod
            ```

            Restart it.
            """;

    final Map<String, String> notes = new LinkedHashMap<>();
    final EditPlanner planner = new EditPlanner();

    EditPlannerTest() {
        notes.put("projects/p/runbooks/pod-crashes.md", RUNBOOK);
    }

    EditPlanner.Vault vault() {
        return new EditPlanner.Vault() {
            public Set<String> paths() {
                return notes.keySet();
            }

            public Optional<String> read(String path) {
                return Optional.ofNullable(notes.get(path));
            }

            public Map<String, List<String>> aliases() {
                return Map.of("shared/concepts/glossary.md", List.of("Terms"));
            }
        };
    }

    EditPlan plan(NoteOperation... ops) {
        return planner.plan(vault(), List.of(ops), p -> true, p -> true);
    }

    String after(NoteOperation op) {
        return plan(op).writes().get(op.path());
    }

    static void fails(int status, String code, ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).as(e.getMessage()).isEqualTo(status);
            assertThat(e.code()).isEqualTo(code);
        });
    }

    static final String P = "projects/p/runbooks/pod-crashes.md";

    @Test
    void aSectionIsReplacedUnderItsHeadingAndTheRestStaysAsWritten() {
        String out = after(new ReplaceSection(P, "Causes", "Wrong image tag."));
        assertThat(out).contains("## Causes\n\nWrong image tag.\n\n## Fixes\n").doesNotContain("Bad config", "Probes");
        assertThat(out).startsWith(RUNBOOK.substring(0, RUNBOOK.indexOf("## Causes")));
        assertThat(out).endsWith(RUNBOOK.substring(RUNBOOK.indexOf("## Fixes")));

        String nested = after(new ReplaceSection(P, "Causes#Probes", "A failing readiness probe."));
        assertThat(nested).contains("### Probes\n\nA failing readiness probe.\n\n## Fixes").contains("Bad config.");
        // the last section: no blank line added at the end of the note
        assertThat(after(new ReplaceSection(P, "#Fixes", "Roll back."))).endsWith("## Fixes\n\nRoll back.\n");
    }

    @Test
    void headingsInFrontMatterAndCodeAreNotSectionsAndAMissingOrRepeatedHeadingIs422() {
        fails(422, "section_not_found", () -> plan(new ReplaceSection(P, "not a heading", "x")));
        fails(422, "section_not_found", () -> plan(new ReplaceSection(P, "owner: platform", "x")));
        fails(422, "section_not_found", () -> plan(new ReplaceSection(P, "Fixes#Probes", "x")));
        notes.put(P, RUNBOOK + "\n## Probes\n\nAgain.\n");
        assertThatThrownBy(() -> plan(new ReplaceSection(P, "Probes", "x"))).hasMessageContaining("occurs 2 times");
        assertThat(after(new ReplaceSection(P, "Causes#Probes", "only this one"))).contains("Again.");
        // case is ignored when that is unique
        assertThat(after(new ReplaceSection(P, "causes", "lower"))).contains("## Causes\n\nlower\n");
    }

    @Test
    void textGoesBeforeAHeadingAfterASectionAtTheEndOrAfterTheFrontMatter() {
        assertThat(after(new InsertBeforeSection(P, "Fixes", "> Read the causes first.")))
                .contains("A failing liveness probe.\n\n> Read the causes first.\n\n## Fixes\n");
        assertThat(after(new InsertAfterSection(P, "Causes", "Also: OOM kills.")))
                .contains("A failing liveness probe.\n\nAlso: OOM kills.\n\n## Fixes\n");
        assertThat(after(new Append(P, "See also [[kubectl]]."))).endsWith("Restart it.\n\nSee also [[kubectl]].\n");
        String prepended = after(new Prepend(P, "> Status: draft"));
        assertThat(prepended).startsWith(RUNBOOK.substring(0, RUNBOOK.indexOf("# Pod crashes")) + "> Status: draft\n\n# Pod");
        notes.put("shared/x.md", "no front matter\n");
        assertThat(after(new Prepend("shared/x.md", "first"))).isEqualTo("first\n\nno front matter\n");
    }

    @Test
    void findReplaceNeedsTheTextExactlyOnce() {
        assertThat(after(new FindReplace(P, "Bad config.", "A bad ConfigMap."))).contains("A bad ConfigMap.")
                .doesNotContain("Bad config.");
        fails(422, "text_not_found", () -> plan(new FindReplace(P, "no such text", "x")));
        fails(422, "text_not_unique", () -> plan(new FindReplace(P, "Pod crashes", "x")));
        fails(400, "bad_request", () -> plan(new FindReplace(P, "", "x")));
    }

    @Test
    void aFrontMatterFieldIsSetOrRemovedAndEveryOtherLineStays() {
        String set = after(new SetField(P, "status", "reviewed"));
        assertThat(set).startsWith("---\ntitle: Pod crashes\n# owner: platform\ntags:\n- k8s\n- pods\nstatus: reviewed\n---\n");
        String tags = after(new SetField(P, "tags", List.of("k8s", "crashloop")));
        assertThat(tags).startsWith("---\ntitle: Pod crashes\n# owner: platform\ntags:\n- k8s\n- crashloop\n---\n");
        assertThat(after(new RemoveField(P, "tags"))).startsWith("---\ntitle: Pod crashes\n# owner: platform\n---\n# Pod");
        notes.put("shared/x.md", "# X\n");
        assertThat(after(new SetField("shared/x.md", "due", 3))).isEqualTo("---\ndue: 3\n---\n# X\n");
        fails(422, "front_matter", () -> plan(new SetField(P, "a: b", "x")));
        notes.put("shared/bad.md", "---\ntitle: [unclosed\n---\n# B\n");
        fails(422, "front_matter", () -> plan(new SetField("shared/bad.md", "status", "x")));
    }

    @Test
    void operationsApplyInOrderAndExistenceIsChecked() {
        EditPlan plan = plan(new Create("projects/p/new.md", "# New\n"), new Append("projects/p/new.md", "More."));
        assertThat(plan.writes()).containsExactly(Map.entry("projects/p/new.md", "# New\n\nMore.\n"));
        fails(409, "note_exists", () -> plan(new Create(P, "# again\n")));
        fails(404, "not_found", () -> plan(new Replace("projects/p/none.md", "x")));
        fails(404, "not_found", () -> plan(new Delete(P), new Append(P, "x")));
        fails(422, "unprocessable", () -> plan(new Replace(P, RUNBOOK)));
        fails(422, "unprocessable", () -> plan(new Create("projects/p/t.md", "t"), new Delete("projects/p/t.md")));
    }

    @Test
    void aMoveRewritesEachLinkToTheNoteInItsOwnStyleAndKeepsHeadingsAndAliases() {
        notes.put("projects/p/index.md", """
                # Index
                - [[pod-crashes]] and [[pod-crashes#Fixes|the fixes]]
                - [[runbooks/pod-crashes.md]] and [[projects/p/runbooks/pod-crashes]]
                - [crashes](runbooks/pod-crashes.md#Causes)
                - `[[pod-crashes]]` stays: code
                - [[kubectl]] is another note
                """);
        notes.put("projects/p/tools/kubectl.md", "# kubectl\n\nSee [[../runbooks/pod-crashes]].\n");
        notes.put("projects/p/runbooks/pod-crashes.md", RUNBOOK + "\nSee [[../tools/kubectl]] and [[#Causes]].\n");
        notes.put("projects/q/other.md", "[[pod-crashes]] from a note the editor may not change\n");

        EditPlan plan = planner.plan(vault(), List.of(new Move(P, "projects/p/debugging/crash-loops.md")),
                p -> !p.startsWith("projects/q/"), p -> true);

        assertThat(plan.moves()).containsExactly(Map.entry(P, "projects/p/debugging/crash-loops.md"));
        assertThat(plan.deletes()).containsExactly(P);
        assertThat(plan.writes().get("projects/p/index.md")).isEqualTo("""
                # Index
                - [[crash-loops]] and [[crash-loops#Fixes|the fixes]]
                - [[debugging/crash-loops.md]] and [[projects/p/debugging/crash-loops]]
                - [crashes](debugging/crash-loops.md#Causes)
                - `[[pod-crashes]]` stays: code
                - [[kubectl]] is another note
                """);
        assertThat(plan.writes().get("projects/p/tools/kubectl.md"))
                .isEqualTo("# kubectl\n\nSee [[../debugging/crash-loops]].\n");
        // its own relative link still reaches kubectl from the new folder; the heading link needs nothing
        assertThat(plan.writes().get("projects/p/debugging/crash-loops.md"))
                .endsWith("\nSee [[../tools/kubectl]] and [[#Causes]].\n");
        assertThat(plan.writes()).doesNotContainKey("projects/q/other.md");
        assertThat(plan.rewrites()).extracting(EditPlan.LinkRewrite::path).containsOnly("projects/p/index.md",
                "projects/p/tools/kubectl.md");
        assertThat(plan.rewrites()).contains(new EditPlan.LinkRewrite("projects/p/index.md",
                "[[pod-crashes#Fixes|the fixes]]", "[[crash-loops#Fixes|the fixes]]"));
    }

    @Test
    void aNewNameThatWouldResolveElsewhereIsWrittenAsThePathAndTheMovedNotesRelativeLinksFollowIt() {
        notes.put("shared/concepts/backoff.md", "# Backoff\n");
        notes.put("shared/concepts/index.md", "[[pod-crashes]]\n");
        notes.put("projects/p/a.md", "[[pod-crashes]] and [note](<runbooks/pod-crashes.md>)\n");
        notes.put(P, "# Pod crashes\n\nSee [[../a]].\n");
        // from the new folder "../a" is not there, and the name fallback would pick this closer a.md
        notes.put("projects/p/runbooks/deep/a.md", "# Another a\n");

        EditPlan plan = plan(new Move(P, "projects/p/runbooks/deep/backoff.md"));

        // from shared/concepts/ a bare [[backoff]] would reach the closer shared/concepts/backoff.md
        assertThat(plan.writes().get("shared/concepts/index.md")).isEqualTo("[[projects/p/runbooks/deep/backoff]]\n");
        // from projects/p/ the bare name is the closest one, and a two-segment suffix stays two segments
        assertThat(plan.writes().get("projects/p/a.md")).isEqualTo("[[backoff]] and [note](<deep/backoff.md>)\n");
        assertThat(plan.writes().get("projects/p/runbooks/deep/backoff.md"))
                .isEqualTo("# Pod crashes\n\nSee [[../../a]].\n");
    }

    @Test
    void aDeleteNamesTheReadableNotesThatStillLinkToIt() {
        notes.put("projects/p/index.md", "[[pod-crashes]]\n");
        notes.put("projects/secret/x.md", "[[pod-crashes]]\n");
        Predicate<String> mayRead = p -> !p.startsWith("projects/secret/");

        EditPlan plan = planner.plan(vault(), List.of(new Delete(P)), p -> true, mayRead);

        assertThat(plan.deletes()).containsExactly(P);
        assertThat(plan.writes()).isEmpty();
        assertThat(plan.linkedFrom()).containsExactly(Map.entry(P, List.of("projects/p/index.md")));
        assertThat(plan.touched()).containsExactly(P);
    }
}
