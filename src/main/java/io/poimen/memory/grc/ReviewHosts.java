package io.poimen.memory.grc;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.config.GitProperties;
import java.nio.file.Files;

/**
 * Which review host new drafts go to: Forgejo when it is configured with the vault remote (pull requests), else the
 * hub itself when the vault is its own repository (git sync off). A vault that follows a remote without Forgejo has
 * no review host: the hub would have to push merges to a remote it only pulls from.
 */
public class ReviewHosts {
    private final GitProperties git;
    private final ForgejoProperties forgejo;
    private final VaultGit vault;

    public ReviewHosts(GitProperties git, ForgejoProperties forgejo, VaultGit vault) {
        this.git = git;
        this.forgejo = forgejo;
        this.vault = vault;
    }

    /** The host of new drafts, or null when there is none. */
    public ReviewHost current() {
        if (forgejo.configured() && git.hasRemote()) {
            return ReviewHost.FORGEJO;
        }
        return git.enabled() ? null : ReviewHost.LOCAL;
    }

    /** The host that takes new drafts now, or null where {@link #require()} answers 503 (the UI hides editing). */
    public ReviewHost available() {
        ReviewHost host = current();
        return host != null && Files.isDirectory(vault.root().resolve(".git")) ? host : null;
    }

    /** The host of new drafts; 503 {@code grc_unavailable} saying what to configure when there is none. */
    public ReviewHost require() {
        ReviewHost host = current();
        if (host == null) {
            throw new ApiException(503, "grc_unavailable", "the vault follows poimen.git.remote but Forgejo is not "
                    + "configured (poimen.forgejo.url, poimen.forgejo.owner, poimen.forgejo.repo): review happens "
                    + "there; or turn git sync off (poimen.git.enabled=false) to review on the hub");
        }
        if (!Files.isDirectory(vault.root().resolve(".git"))) {
            throw new ApiException(503, "grc_unavailable", "the vault folder is not a git "
                    + "working copy and could not be made one (the log at start says why)");
        }
        return host;
    }
}
