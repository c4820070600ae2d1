package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.security.Access;
import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.config.GitProperties;
import io.poimen.memory.grc.edit.NoteOperation;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.LocalOperatorAccess;
import io.poimen.memory.testsupport.TestH2;
import io.poimen.memory.vault.NoteVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.FileSystemUtils;

/**
 * Issue 26's generated proof that review never loses an update, on the hub as review host, at the component level:
 * the real {@link DraftSubmission}, {@link LocalReview}, {@link DraftStore} (H2) and a real git repository, no
 * HTTP. Each interleaving starts from a fresh small vault (two notes of three sections) and runs a random sequence
 * of: an editor's draft (replace_section, append, find_replace or write) made from the note as it is or as it was a
 * few changes ago, an approval (and the merge), a rejection, and a commit pushed straight onto the vault branch.
 *
 * <p>The oracle knows nothing of the merge code; it compares lines (every line the test writes is unique). After
 * every merge: each line the vault held before it that the draft did not itself remove from its base is still there
 * (a lost update otherwise), the lines the draft added are there and those it removed are gone. A draft that removed
 * a line of its base which was also removed or changed after its base is {@code conflict}, never merged (a silent
 * revert otherwise); a conflict leaves the vault as it was. A rejected or merged draft's branch is deleted. The seed is
 * printed; rerun one with {@code -Dpoimen.interleavings.seed=}.
 */
class DraftInterleavingsTest {
    static final int INTERLEAVINGS = Integer.getInteger("poimen.interleavings", 500);
    /** Interleavings run one after the other on one vault, before the next starts afresh. */
    static final int PER_VAULT = 25;
    static final int MAX_STEPS = 10;
    static final List<String> NOTES = List.of("projects/p/alpha.md", "projects/p/beta.md");
    static final List<String> SECTIONS = List.of("S1", "S2", "S3");

    @TempDir
    Path tmp;

    private final DataSource db = TestH2.migrated("interleavings");
    private final Counts counts = new Counts();
    private final List<String> violations = new ArrayList<>();
    private int line;

    static final class Counts {
        int interleavings, submitted, refusedAtSubmission, merges, conflictsAtMerge, rejections, pushes, overlaps;

        @Override
        public String toString() {
            return "interleavings=" + interleavings + " drafts submitted=" + submitted + " refused at submission="
                    + refusedAtSubmission + " merges=" + merges + " conflicts at merge=" + conflictsAtMerge
                    + " rejections=" + rejections + " direct pushes=" + pushes + " overlapping drafts="
                    + overlaps;
        }
    }

    /** A draft as the test made it: the note, the text the editor started from, the lines it puts in and takes out. */
    private record Made(String id, String path, String base, Set<String> added, Set<String> removed) {
    }

    /** A text with one line changed: the line taken out, if any. */
    private record Rewrite(String text, String removed) {
    }

    /** One vault: its repository, and the hub's parts working on it. */
    record Hub(Path root, DraftSubmission submission, LocalReview local, VaultGit vault, GitProperties git) {
    }

    @Test
    void randomInterleavingsOfEditsMergesRejectionsAndPushesLoseNoUpdateAndRevertNothing() throws Exception {
        long seed = Long.getLong("poimen.interleavings.seed", new Random().nextLong());
        System.out.println("DraftInterleavingsTest seed " + seed);
        long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        Random random = new Random(seed);
        DraftStore drafts = new DraftStore(db);
        // hundreds of small repositories: in memory where the machine has a tmpfs, so that disk load does not count
        Path shm = Path.of("/dev/shm");
        Path work = Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "poimen-interleavings-") : tmp;
        try {
            Hub hub = null;
            for (int i = 0; i < INTERLEAVINGS; i++) {
                if (i % PER_VAULT == 0) {
                    hub = hub(drafts, work.resolve("vault-" + i), Clock.systemUTC(), note(NOTES.get(0)),
                            note(NOTES.get(1)));
                }
                try {
                    interleaving(hub, drafts, random);
                } catch (Exception | AssertionError e) {
                    throw new AssertionError("interleaving " + i + " (seed " + seed + ") failed: " + e, e);
                }
                counts.interleavings++;
                assertThat(violations).as("seed %d, interleaving %d", seed, i).isEmpty();
            }
        } finally {
            FileSystemUtils.deleteRecursively(work);
        }
        cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
        System.out.println("DraftInterleavingsTest " + counts + " lost updates=0 silent reverts=0 (cpu "
                + cpu / 1_000_000 + " ms)");
        assertThat(counts.interleavings).isEqualTo(INTERLEAVINGS);
        assertThat(counts.merges).as("merges happened").isGreaterThan(INTERLEAVINGS);
        assertThat(counts.conflictsAtMerge).as("conflicts at merge happened").isGreaterThan(INTERLEAVINGS / 20);
        assertThat(counts.overlaps).as("overlapping drafts were tried").isGreaterThan(INTERLEAVINGS / 20);
    }

    /** A fresh vault holding {@link #NOTES} with these texts, made the hub's repository. */
    static Hub hub(DraftStore drafts, Path dir, Clock clock, String... texts) throws Exception {
        Path root = dir.resolve("vault");
        GitProperties git = new GitProperties(false, null, "main", Duration.ofSeconds(30), Duration.ofSeconds(5),
                "poimen", null, dir.resolve("drafts.git"), "users.noreply.poimen");
        ForgejoProperties forgejo = new ForgejoProperties(null, null, null, null, Duration.ofSeconds(10),
                new ForgejoProperties.Delivery(Duration.ofSeconds(30), Duration.ofMinutes(30), Duration.ofMinutes(5),
                        50, 2, Duration.ofMillis(500), Duration.ofSeconds(15)));
        for (int i = 0; i < NOTES.size(); i++) {
            Files.createDirectories(root.resolve(NOTES.get(i)).getParent());
            Files.writeString(root.resolve(NOTES.get(i)), texts[i]);
        }
        VaultGit vault = new VaultGit(root, git, null);
        assertThat(vault.prepareLocal(null)).isTrue();
        LocalReview local = new LocalReview(vault, drafts, git, clock);
        return new Hub(root, new DraftSubmission(drafts, vault, new ReviewHosts(git, forgejo, vault), local,
                new Access(new LocalOperatorAccess(), null), git, forgejo, clock), local, vault, git);
    }

    /**
     * Editors read the vault, make drafts from what they read (or from an older version), reviewers approve and
     * reject them in any order, someone pushes in between; at the end every draft still open is decided.
     */
    private void interleaving(Hub hub, DraftStore drafts, Random random) throws Exception {
        Path root = hub.root();
        Map<String, List<String>> seen = new TreeMap<>(); // note → the texts editors may have read, latest last
        NOTES.forEach(n -> seen.put(n, new ArrayList<>(List.of(read(root, n)))));
        List<Made> open = new ArrayList<>();
        int steps = 3 + random.nextInt(MAX_STEPS - 2);
        for (int step = 0; step < steps; step++) {
            int what = random.nextInt(10);
            if (what < 4 || open.isEmpty() && what < 8) {
                edit(hub.submission(), random, root, seen, open);
            } else if (what < 7) {
                merge(hub.local(), drafts, root, open.remove(random.nextInt(open.size())));
            } else if (what < 8) {
                reject(hub.local(), drafts, root, open.remove(random.nextInt(open.size())));
            } else {
                push(random, root);
            }
            NOTES.forEach(n -> {
                List<String> texts = seen.get(n);
                String now = read(root, n);
                if (!texts.get(texts.size() - 1).equals(now)) {
                    texts.add(now);
                }
            });
        }
        while (!open.isEmpty()) {
            Made made = open.remove(random.nextInt(open.size()));
            if (random.nextInt(4) == 0) {
                reject(hub.local(), drafts, root, made);
            } else {
                merge(hub.local(), drafts, root, made);
            }
        }
    }

    /** An editor's draft of one note, from its text now or a few changes ago. */
    private void edit(DraftSubmission submission, Random random, Path root, Map<String, List<String>> seen,
                      List<Made> open) throws Exception {
        String path = NOTES.get(random.nextInt(NOTES.size()));
        List<String> texts = seen.get(path);
        String base = texts.get(Math.max(0, texts.size() - 1 - random.nextInt(4)));
        List<String> content = contentLines(base);
        String fresh = next();
        Set<String> added = new LinkedHashSet<>(List.of(fresh));
        Set<String> removed = new LinkedHashSet<>();
        NoteOperation op;
        switch (random.nextInt(4)) {
            case 0 -> {
                String section = SECTIONS.get(random.nextInt(SECTIONS.size()));
                String text = fresh;
                if (random.nextBoolean()) {
                    String second = next();
                    added.add(second);
                    text = fresh + "\n" + second;
                }
                removed.addAll(sectionLines(base, section));
                op = new NoteOperation.ReplaceSection(path, section, text);
            }
            case 1 -> op = new NoteOperation.Append(path, fresh);
            case 2 -> {
                String find = content.get(random.nextInt(content.size()));
                removed.add(find);
                op = new NoteOperation.FindReplace(path, find, fresh);
            }
            default -> {
                Rewrite r = rewritten(base, random, fresh);
                if (r.removed() != null) {
                    removed.add(r.removed());
                }
                op = new NoteOperation.Write(path, r.text());
            }
        }
        // the oracle of a revert: the draft takes out a line of its base that was changed after the base
        boolean overlaps = removed.stream().anyMatch(minus(lines(base), lines(read(root, path)))::contains);
        if (overlaps) {
            counts.overlaps++;
        }
        String headBefore = head(root);
        DraftSubmission.Outcome outcome = submission.submit(Caller.LOCAL_OPERATOR, "t",
                new DraftInput(List.of(op), "[]", Map.of(path, NoteVersion.of(base)), "edit " + fresh));
        assertThat(head(root)).as("a submission changes nothing in the vault").isEqualTo(headBefore);
        if (outcome.draft() == null) {
            counts.refusedAtSubmission++;
            assertThat(outcome.conflicts()).containsKey(path);
            return;
        }
        counts.submitted++;
        if (overlaps) {
            violations.add("silent revert: a draft taking out " + removed + " of its base was stored although "
                    + "some of them changed after the base");
        }
        Draft draft = outcome.draft();
        assertThat(draft.edit().changes().baseTexts()).as("the base the editor read").containsEntry(path, base);
        Set<String> written = lines(draft.edit().changes().writes().get(path));
        assertThat(written).as("the draft holds the edit").containsAll(added);
        assertThat(removed).as("the draft takes out what the edit takes out").noneMatch(written::contains);
        assertThat(branch(root, draft.branch())).as("a draft is a branch").isNotNull();
        open.add(new Made(draft.id(), path, base, added, removed));
    }

    private void merge(LocalReview local, DraftStore drafts, Path root, Made made) throws Exception {
        Map<String, String> before = texts(root);
        String headBefore = head(root);
        Set<String> removed = made.removed();
        Set<String> changedSince = minus(lines(made.base()), lines(before.get(made.path())));
        boolean overlaps = removed.stream().anyMatch(changedSince::contains);
        if (overlaps) {
            counts.overlaps++;
        }
        assertThat(drafts.approve(made.id(), "reviewer", null, java.time.Instant.now())).isTrue();
        local.merge(made.id());
        Draft after = drafts.find(made.id()).orElseThrow();
        Map<String, String> now = texts(root);
        if (after.status() == DraftStatus.CONFLICT) {
            counts.conflictsAtMerge++;
            assertThat(head(root)).as("a conflict merges nothing").isEqualTo(headBefore);
            assertThat(now).isEqualTo(before);
            assertThat(after.edit().conflicts()).containsKey(made.path());
            assertThat(branch(root, after.branch())).as("a conflicting draft keeps its branch").isNotNull();
            return;
        }
        assertThat(after.status()).isEqualTo(DraftStatus.MERGED);
        counts.merges++;
        if (overlaps) {
            violations.add("silent revert: draft " + made.id() + " removed " + removed + " of its base, and "
                    + changedSince + " changed after its base, yet it was merged");
        }
        Set<String> kept = lines(now.get(made.path()));
        for (String l : lines(before.get(made.path()))) {
            if (!removed.contains(l) && !kept.contains(l)) {
                violations.add("lost update: '" + l + "' of " + made.path() + " is gone after merging draft "
                        + made.id() + ", which did not remove it");
            }
        }
        assertThat(kept).as("the draft's own lines are in").containsAll(made.added());
        assertThat(removed).as("the lines the draft removed are gone").noneMatch(kept::contains);
        before.forEach((path, text) -> {
            if (!path.equals(made.path())) {
                assertThat(now.get(path)).as("a note the draft did not touch").isEqualTo(text);
            }
        });
        assertThat(branch(root, after.branch())).as("a merged draft's branch is deleted").isNull();
    }

    private void reject(LocalReview local, DraftStore drafts, Path root, Made made) throws Exception {
        Map<String, String> before = texts(root);
        assertThat(drafts.reject(made.id(), "reviewer", "no", java.time.Instant.now())).isTrue();
        counts.rejections++;
        local.prune();
        Draft after = drafts.find(made.id()).orElseThrow();
        assertThat(after.status()).isEqualTo(DraftStatus.REJECTED);
        assertThat(branch(root, after.branch())).as("a rejected draft's branch is deleted").isNull();
        assertThat(texts(root)).isEqualTo(before);
    }

    /** Someone commits straight onto the vault branch: a line changed, added or appended. */
    private void push(Random random, Path root) throws Exception {
        String path = NOTES.get(random.nextInt(NOTES.size()));
        String text = read(root, path);
        Files.writeString(root.resolve(path), rewritten(text, random, next()).text());
        try (Git g = Git.open(root.toFile())) {
            PersonIdent who = new PersonIdent("someone", "someone@example.org");
            g.add().addFilepattern(path).call();
            g.commit().setMessage("by hand").setAuthor(who).setCommitter(who).setSign(false).call();
        }
        counts.pushes++;
    }

    /** The text with one of its content lines replaced by {@code fresh}, or {@code fresh} put after one, or at the end. */
    private static Rewrite rewritten(String text, Random random, String fresh) {
        List<String> all = new ArrayList<>(text.lines().toList());
        List<String> content = contentLines(text);
        String target = content.get(random.nextInt(content.size()));
        int at = all.indexOf(target);
        String removed = null;
        switch (random.nextInt(3)) {
            case 0 -> {
                all.set(at, fresh);
                removed = target;
            }
            case 1 -> all.add(at + 1, fresh);
            default -> all.add(fresh);
        }
        return new Rewrite(String.join("\n", all) + "\n", removed);
    }

    /** The content lines under {@code ## section}, up to the next heading. */
    private static List<String> sectionLines(String text, String section) {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String l : text.lines().toList()) {
            if (l.startsWith("#")) {
                in = l.equals("## " + section);
            } else if (in && !l.isBlank()) {
                out.add(l);
            }
        }
        return out;
    }

    private String note(String path) {
        StringBuilder b = new StringBuilder("# " + path + "\n");
        for (String s : SECTIONS) {
            b.append("\n## ").append(s).append("\n\n");
            for (int i = 0; i < 2; i++) {
                b.append(next()).append('\n');
            }
        }
        return b.toString();
    }

    private String next() {
        return String.format("line %06d.", ++line);
    }

    /** The lines that are not headings or blank: what edits write. */
    private static List<String> contentLines(String text) {
        return text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    private static Set<String> lines(String text) {
        return text.lines().filter(l -> !l.isBlank()).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> out = new LinkedHashSet<>(a);
        out.removeAll(b);
        return out;
    }

    private static Map<String, String> texts(Path root) {
        Map<String, String> out = new LinkedHashMap<>();
        NOTES.forEach(n -> out.put(n, read(root, n)));
        return out;
    }

    private static String read(Path root, String path) {
        try {
            return Files.readString(root.resolve(path), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String head(Path root) throws Exception {
        try (Git g = Git.open(root.toFile())) {
            return g.getRepository().resolve(Constants.R_HEADS + "main").name();
        }
    }

    private static ObjectId branch(Path root, String name) throws Exception {
        try (Git g = Git.open(root.toFile())) {
            return g.getRepository().resolve(Constants.R_HEADS + name);
        }
    }
}
