package io.poimen.memory.grc;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code poimen.git.*}: the vault's git remote (the Forgejo repository) and how the hub follows it.
 *
 * @param enabled       pull and reindex on webhooks and on a timer; clone the remote into the vault path at start
 * @param remote        URL of the vault repository (https on Forgejo, or a path for a bare repository on disk)
 * @param branch        the reviewed branch the vault follows and drafts are based on
 * @param pollPeriod    how often the timer pulls, in addition to webhooks
 * @param initialDelay  delay of the first timed pull after start
 * @param username      user name for pushes and pulls over https
 * @param token         access token (the password of token auth); falls back to {@code poimen.forgejo.token}
 * @param draftsDir     the hub's own bare repository where draft commits are built before they are pushed
 * @param noreplyDomain mail domain of author addresses for callers whose token carries no e-mail
 */
@ConfigurationProperties("poimen.git")
public record GitProperties(boolean enabled, String remote, String branch, Duration pollPeriod, Duration initialDelay,
                            String username, String token, Path draftsDir, String noreplyDomain) {
    public GitProperties {
        branch = branch == null || branch.isBlank() ? "main" : branch;
        pollPeriod = pollPeriod != null ? pollPeriod : Duration.ofSeconds(30);
        initialDelay = initialDelay != null ? initialDelay : Duration.ofSeconds(5);
        username = username == null || username.isBlank() ? "poimen" : username;
        draftsDir = draftsDir != null ? draftsDir : Path.of("data/grc/drafts.git");
        noreplyDomain = noreplyDomain == null || noreplyDomain.isBlank() ? "users.noreply.poimen" : noreplyDomain;
    }

    public boolean hasRemote() {
        return remote != null && !remote.isBlank();
    }
}
