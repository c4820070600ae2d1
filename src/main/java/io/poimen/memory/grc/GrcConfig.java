package io.poimen.memory.grc;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.ClusterProperties;
import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.config.GitProperties;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.config.WebhookProperties;
import io.poimen.memory.cluster.Leadership;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.policy.PolicyStore;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The edit flow (drafts reviewed on the hub or as Forgejo pull requests) and the sync flow (webhooks, git pull, incremental reindex). */
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

    /** Delivery, merge and their retry timers (Java DSL: owned by the code, not reloaded from routes/). */
    @Bean
    DraftRoutes draftRoutes(ClusterProperties cluster, ForgejoProperties forgejo, DraftDelivery delivery,
                            LocalReview review, RetrievalMetrics metrics) {
        return new DraftRoutes(cluster.namespace(), forgejo.delivery(), delivery, review, metrics);
    }

    @Bean
    ReviewHosts reviewHosts(GitProperties git, ForgejoProperties forgejo, VaultGit vault) {
        return new ReviewHosts(git, forgejo, vault);
    }

    @Bean
    LocalReview localReview(VaultGit vault, DraftStore drafts, GitProperties git, Clock clock) {
        return new LocalReview(vault, drafts, git, clock);
    }

    @Bean
    DraftSubmission draftSubmission(DraftStore drafts, VaultGit vault, ReviewHosts hosts, LocalReview local,
                                    Access access, GitProperties git, ForgejoProperties forgejo, Clock clock) {
        return new DraftSubmission(drafts, vault, hosts, local, access, git, forgejo, clock);
    }

    @Bean
    GrcApi grcApi(DraftStore drafts, DraftSubmission submission, ForgejoClient forgejo, CallerResolver callers,
                  Access access, ObjectMapper json) {
        return new GrcApi(drafts, submission, forgejo, callers, access, json);
    }

    /** Self-approval: the local operator of the no-auth mode always; others as policies/default.yaml says. */
    @Bean
    DraftReviews draftReviews(DraftStore drafts, CallerResolver callers, Access access, Leadership leadership,
                              PolicyStore policies, VaultGit vault, ObjectMapper json, Clock clock,
                              io.poimen.memory.graph.GraphService graph) {
        return new DraftReviews(drafts, callers, access, leadership, caller -> caller.anonymous()
                || policies.defaults() != null && policies.defaults().selfApproval(), vault.root(), json, clock,
                () -> graph.current().notes());
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
    VaultSync vaultSync(VaultGit vault, GitProperties git, CallerResolver callers, Access access, Clock clock,
                        io.poimen.memory.graph.GraphService graph) {
        return new VaultSync(vault, git, callers, access, clock, () -> graph.current().notes());
    }

    @Bean
    WebhookDeliveries webhookDeliveries(DataSource dataSource, Clock clock) {
        return new WebhookDeliveries(dataSource, clock);
    }

    @Bean
    ForgejoWebhooks forgejoWebhooks(WebhookProperties settings, GitProperties git, VaultSync sync, ObjectMapper json,
                                    DraftStore drafts, Clock clock) {
        return new ForgejoWebhooks(settings, git, sync, json, drafts, clock);
    }
}
