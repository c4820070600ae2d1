package io.poimen.memory.config;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

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
public record GitProperties(@DefaultValue("false") boolean enabled, String remote, @DefaultValue("main") String branch,
                            @DefaultValue("30s") Duration pollPeriod, @DefaultValue("5s") Duration initialDelay,
                            @DefaultValue("poimen") String username, String token,
                            @DefaultValue("data/grc/drafts.git") Path draftsDir,
                            @DefaultValue("users.noreply.poimen") String noreplyDomain) {
    public boolean hasRemote() {
        return remote != null && !remote.isBlank();
    }
}
