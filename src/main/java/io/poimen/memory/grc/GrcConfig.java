package io.poimen.memory.grc;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.config.GitProperties;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.config.WebhookProperties;
import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.CallerResolver;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The edit flow (drafts → Forgejo pull requests) and the sync flow (webhooks, git pull, incremental reindex). */
@Configuration
public class GrcConfig {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    DraftStore draftStore(DataSource dataSource) {
        return new DraftStore(dataSource);
    }

    @Bean
    DraftBranches draftBranches(GitProperties git, ForgejoProperties forgejo) {
        return new DraftBranches(git, forgejo.token());
    }

    @Bean
    ForgejoClient forgejoClient(ForgejoProperties forgejo, ObjectMapper json) {
        return new ForgejoClient(forgejo, json);
    }

    @Bean
    DraftDelivery draftDelivery(DraftStore drafts, DraftBranches branches, ForgejoClient forgejo, GitProperties git,
                                ForgejoProperties settings, Clock clock) {
        return new DraftDelivery(drafts, branches, forgejo, git, settings.delivery(), clock);
    }

    @Bean
    GrcApi grcApi(DraftStore drafts, ForgejoClient forgejo, ForgejoProperties settings, GitProperties git,
                  PoimenProperties poimen, CallerResolver callers, AccessChecks access, ObjectMapper json,
                  Clock clock, io.poimen.memory.graph.GraphService graph) {
        return new GrcApi(drafts, forgejo, settings, git, poimen.vault().path().toAbsolutePath().normalize(),
                callers, access, json, clock, () -> graph.current().notes());
    }

    /**
     * The vault working copy, before the routes start: with sync enabled cloned or checked; otherwise the vault
     * folder is made the hub's own repository (seeded from {@code poimen.vault.seed} when missing or empty).
     */
    @Bean
    VaultGit vaultGit(PoimenProperties poimen, GitProperties git, ForgejoProperties forgejo) {
        VaultGit vault = new VaultGit(poimen.vault().path(), git, forgejo.token());
        if (git.enabled()) {
            vault.prepare();
        } else {
            vault.prepareLocal(poimen.vault().seed());
        }
        return vault;
    }

    @Bean
    VaultSync vaultSync(VaultGit vault, GitProperties git, CallerResolver callers, AccessChecks access, Clock clock,
                        io.poimen.memory.graph.GraphService graph) {
        return new VaultSync(vault, git, callers, access, clock, () -> graph.current().notes());
    }

    @Bean
    WebhookDeliveries webhookDeliveries(DataSource dataSource, Clock clock) {
        return new WebhookDeliveries(dataSource, clock);
    }

    @Bean
    ForgejoWebhooks forgejoWebhooks(WebhookProperties settings, GitProperties git, VaultSync sync, ObjectMapper json) {
        return new ForgejoWebhooks(settings, git, sync, json);
    }
}
