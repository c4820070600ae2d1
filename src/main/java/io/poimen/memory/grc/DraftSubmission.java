package io.poimen.memory.grc;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.config.GitProperties;
import io.poimen.memory.grc.edit.EditPlan;
import io.poimen.memory.grc.edit.EditPlanner;
import io.poimen.memory.grc.edit.NoteOperation;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.ReadAccess;
import io.poimen.memory.security.policy.VaultResource;
import io.poimen.memory.vault.PolicyFileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Repository;

/**
 * Turns a draft request into a stored draft: every path checked (inside a project or {@code shared/}, a note, not a
 * policy file name, no case clash), write access on every path the operations name (a move's destination too)
 * before anything is read, the operations planned on the notes as the editor read them ({@code base_versions}),
 * write access on every note the plan touches, and the plan re-applied to the vault branch now. A conflict there is
 * answered (409 {@code edit_conflict}) and nothing is stored; otherwise the draft is stored with its base versions
 * and, on the hub as review host, its branch made. A dry run goes through every check and stores nothing.
 */
public class DraftSubmission {
    /**
     * @param draft     the stored draft, or null
     * @param conflicts what stands in the way, per note, when nothing was stored
     * @param preview   the changes a dry run would have stored (null otherwise)
     */
    public record Outcome(Draft draft, Map<String, EditConflict> conflicts, DraftChanges preview) {
        Outcome(Draft draft, Map<String, EditConflict> conflicts) {
            this(draft, conflicts, null);
        }
    }

    private final DraftStore drafts;
    private final VaultGit vault;
    private final ReviewHosts hosts;
    private final LocalReview local;
    private final Access access;
    private final GitProperties git;
    private final ForgejoProperties forgejo;
    private final Clock clock;
    private final EditPlanner planner = new EditPlanner();

    public DraftSubmission(DraftStore drafts, VaultGit vault, ReviewHosts hosts, LocalReview local,
                           Access access, GitProperties git, ForgejoProperties forgejo, Clock clock) {
        this.drafts = drafts;
        this.vault = vault;
        this.hosts = hosts;
        this.local = local;
        this.access = access;
        this.git = git;
        this.forgejo = forgejo;
        this.clock = clock;
    }

    public Outcome submit(Caller caller, String traceId, DraftInput input) {
        ReviewHost host = hosts.require();
        Set<String> named = new LinkedHashSet<>();
        for (NoteOperation op : input.ops()) {
            named.add(checked(op.path()));
            op.alsoWrites().forEach(p -> named.add(checked(p)));
        }
        for (String path : named) {
            access.requireWrite(caller, path, traceId);
        }
        ReadAccess read = access.reads(caller, traceId);
        for (String path : named) {
            refuseCaseClash(path, read);
        }
        // a version of a note the caller may not change cannot matter, and is not looked at
        Map<String, String> bases = new LinkedHashMap<>();
        input.baseVersions().forEach((path, version) -> {
            if (mayWrite(caller, path, traceId)) {
                bases.put(path, version);
            }
        });
        try (Git g = Git.open(vault.root().toFile())) {
            Repository repo = g.getRepository();
            VaultTree head = VaultTree.of(repo, repo.resolve(Constants.R_HEADS + git.branch()));
            BaseVersions base;
            try {
                base = BaseVersions.of(repo, head, bases, vault.root());
            } catch (BaseVersions.Unknown u) {
                String now = head.version(u.path);
                return new Outcome(null, Map.of(u.path, new EditConflict(now == null ? "" : now, null,
                        "the base version " + u.version + " is not a version of " + u.path + "; read the note again")));
            }
            EditPlan plan = planner.plan(base, input.ops(), p -> mayWrite(caller, p, traceId), read::allowsIfNotePath);
            for (String path : plan.touched()) {
                access.requireWrite(caller, path, traceId);
            }
            for (Map.Entry<String, String> w : plan.writes().entrySet()) {
                int bytes = w.getValue().getBytes(StandardCharsets.UTF_8).length;
                if (bytes > DraftRequest.MAX_CONTENT_BYTES) {
                    throw new ApiException(413, "payload_too_large", w.getKey() + " would be " + bytes
                            + " bytes; a note may have at most " + DraftRequest.MAX_CONTENT_BYTES);
                }
            }
            DraftChanges changes = changes(plan, base);
            DraftRebase.Result now = DraftRebase.onto(changes, head::read, head::version);
            if (!now.clean()) {
                return new Outcome(null, now.conflicts());
            }
            if (now.changesNothing()) {
                throw ApiException.unprocessable("the vault holds these changes already: nothing to review");
            }
            if (input.dryRun()) {
                return new Outcome(null, Map.of(), changes);
            }
            Draft draft = draft(caller, input, host, changes, head);
            if (host == ReviewHost.LOCAL) {
                local.branch(repo, head, draft, now);
            }
            drafts.insert(draft);
            return new Outcome(draft, Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Draft draft(Caller caller, DraftInput input, ReviewHost host, DraftChanges changes, VaultTree head) {
        Instant now = clock.instant();
        String email = caller.email() != null && !caller.email().isBlank() ? caller.email()
                : BranchNames.clean(caller.subject()) + "@" + git.noreplyDomain();
        String name = caller.name() != null && !caller.name().isBlank() ? caller.name() : caller.subject();
        String id = UUID.randomUUID().toString();
        String first = changes.touched().iterator().next();
        boolean local = host == ReviewHost.LOCAL;
        String content = input.operations() == null ? changes.writes().getOrDefault(first, "") : "";
        return new Draft(id, caller.subject(), name, email, first, content, input.message(),
                BranchNames.of(caller, first, now, id), local ? DraftStatus.OPEN : DraftStatus.PENDING, 0, null,
                null, null, local ? null : now.plus(forgejo.delivery().deliveringTimeout()), now, now,
                new Draft.Edit(host, input.operations(), changes,
                        head.commit() == null ? null : head.commit().name(), Map.of()),
                Draft.Review.NONE);
    }

    /** The plan with the version and text of every note it touches as the editor read them. */
    private static DraftChanges changes(EditPlan plan, BaseVersions base) {
        Map<String, String> versions = new LinkedHashMap<>();
        Map<String, String> texts = new LinkedHashMap<>();
        for (String path : plan.touched()) {
            versions.put(path, base.version(path));
            base.read(path).ifPresent(t -> texts.put(path, t));
        }
        return new DraftChanges(versions, texts, plan.writes(), List.copyOf(plan.deletes()), plan.moves(),
                plan.rewrites(), plan.linkedFrom());
    }

    private boolean mayWrite(Caller caller, String path, String traceId) {
        return mayWrite(access, caller, path, traceId);
    }

    /** Whether {@code caller} may write {@code path}: false where a write would be refused (403) or is no note (400). */
    static boolean mayWrite(Access access, Caller caller, String path, String traceId) {
        try {
            access.requireWrite(caller, path, traceId);
            return true;
        } catch (ApiException e) {
            if (e.status() == 403 || e.status() == 400) {
                return false;
            }
            throw e;
        }
    }

    /** The checks of a draft's {@code document_path} ({@link DraftRequest}) for each path an operation names. */
    static String checked(String path) {
        String p;
        try {
            p = new DraftRequest(path, "", "-").validated().documentPath();
        } catch (ApiException e) {
            throw new ApiException(e.status(), e.code(), e.getMessage().replace("document_path", "path"),
                    e.reason());
        }
        if (PolicyFileNames.policyName(Path.of(p).getFileName().toString())) {
            throw ApiException.badRequest("path is named like an access policy file (" + PolicyFileNames.POLICY_FILE
                    + " or a near-miss of it), which is never a note: " + p);
        }
        if (!p.equals(path)) {
            throw ApiException.badRequest("path must be written without surrounding blanks: '" + path + "'");
        }
        return p;
    }

    /**
     * A path that differs only in case from an existing file or folder the caller may read would become a second
     * note on Linux and clash on case-insensitive checkouts (macOS, Windows): 409 naming it. A clash with something
     * the caller may not read is not refused: the answer would tell that it exists (the reviewer sees both). A path
     * under an existing file can never be written: 409 as well (the caller may write below the file's folder, so may
     * read the file).
     */
    private void refuseCaseClash(String documentPath, ReadAccess read) {
        Path root = vault.root();
        Path dir = root;
        for (String segment : documentPath.split("/")) {
            if (!Files.isDirectory(dir)) {
                if (Files.exists(dir)) {
                    String file = relative(root, dir);
                    if (!read.allowsIfNotePath(file)) {
                        throw Access.denied(Action.WRITE, VaultResource.of(documentPath));
                    }
                    throw new ApiException(409, "path_under_file", "path " + documentPath
                            + " lies under the file " + file);
                }
                return;
            }
            List<Path> clashes;
            try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
                clashes = entries.filter(p -> !p.getFileName().toString().equals(segment)
                        && p.getFileName().toString().equalsIgnoreCase(segment)).sorted().toList();
            } catch (IOException e) {
                return;
            }
            for (Path clash : clashes) {
                String existing = relative(root, clash);
                if (read.allowsIfNotePath(Files.isDirectory(clash) ? existing + "/" : existing)) {
                    throw new ApiException(409, "case_clash", "path " + documentPath
                            + " differs only in case from the existing " + existing);
                }
            }
            dir = dir.resolve(segment);
        }
    }

    private static String relative(Path root, Path p) {
        return root.relativize(p).toString().replace('\\', '/');
    }
}
