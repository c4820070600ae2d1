package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.security.Access;
import io.poimen.memory.api.VaultViews;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.retrieval.NoteLookup;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.jdbc.JdbcNoteStore;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.security.audit.AuditLog;
import io.poimen.memory.security.AuditedAccess;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.OidcAccessChecks;
import io.poimen.memory.security.policy.PolicyStore;
import io.poimen.memory.security.policy.RbacEngine;
import io.poimen.memory.security.policy.RoleModel;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.vault.LinkType;
import io.poimen.memory.vault.WikiLink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /memory/vault?project=} and {@code /memory/graph/reachable} take a restricted caller's scope from
 * {@link SearchScopes}: the walk is cached per (graph version, project, denied access groups), the read decisions
 * are made on every request, so an edited {@code _access.yaml} applies to the next request.
 */
class VaultBrowserScopeCacheTest {
    static final List<String> NOTES = List.of("projects/p/a.md", "projects/p/secret/s.md", "shared/open.md",
            "shared/via-secret.md");
    static final Caller OPS = new Caller("olga", "olga", null, List.of("p-team"), List.of("viewer"),
            List.copyOf(RoleModel.defaults().permissionsOf(List.of("viewer"))), false);

    @TempDir Path tmp;
    CamelContext camel;

    @AfterEach
    void stopCamel() {
        if (camel != null) {
            camel.stop();
        }
    }

    @Test
    void aRestrictedListingIsWalkedOncePerGraphAndDenialsAndAPolicyEditAppliesOnTheNextRequest() throws Exception {
        Path vault = tmp.resolve("vault");
        Path policies = tmp.resolve("policies");
        Files.createDirectories(policies);
        Files.writeString(policies.resolve("default.yaml"), "default_access: public\nproject_default: deny\n");
        for (String note : NOTES) {
            Files.createDirectories(vault.resolve(note).getParent());
            Files.writeString(vault.resolve(note), "# " + note + "\n");
        }
        policy(vault.resolve("projects/p/_access.yaml"), "project: p\naccess_level: group\nowner_group: p-team\n"
                + "allowed_groups: [p-team]\n", 1);
        Path secret = vault.resolve("projects/p/secret/_access.yaml");
        policy(secret, "access_level: group\nowner_group: ops\nallowed_groups: [ops]\n", 1);
        GraphService graph = new GraphService();
        graph.replace(LinkGraph.of(NOTES, List.of(link("projects/p/a.md", "shared/open.md"),
                link("projects/p/secret/s.md", "shared/via-secret.md"))));
        SearchScopes scopes = new SearchScopes(graph);
        VaultBrowser browser = browser(vault, policies, graph, scopes);

        assertThat(listing(browser)).containsExactly("projects/p/a.md", "shared/open.md");
        assertThat(listing(browser)).containsExactly("projects/p/a.md", "shared/open.md");
        assertThat(browser.reachable(new DefaultExchange(camel), "p").notes())
                .containsExactlyInAnyOrder("projects/p/a.md", "shared/open.md");
        assertThat(scopes.stats().misses()).as("walked once").isEqualTo(1);
        assertThat(scopes.stats().hits()).as("then served").isEqualTo(2);

        // the folder opened to the caller's group: the very next request walks through it
        policy(secret, "access_level: group\nowner_group: ops\nallowed_groups: [ops, p-team]\n", 2);
        assertThat(listing(browser)).containsExactly("projects/p/a.md", "projects/p/secret/s.md", "shared/open.md",
                "shared/via-secret.md");
        assertThat(scopes.stats().misses()).isEqualTo(2);
        // and closed again: the first scope, from the cache, with nothing of the folder
        policy(secret, "access_level: group\nowner_group: ops\nallowed_groups: [ops]\n", 3);
        assertThat(listing(browser)).containsExactly("projects/p/a.md", "shared/open.md");
        assertThat(scopes.stats().misses()).isEqualTo(2);
        assertThat(scopes.stats().hits()).isEqualTo(3);
    }

    private VaultBrowser browser(Path vault, Path policies, GraphService graph, SearchScopes scopes)
            throws Exception {
        camel = new DefaultCamelContext();
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(AuditLog.ROUTE).log("audit");
            }
        });
        camel.start();
        RbacEngine engine = new RbacEngine(new PolicyStore(vault, policies), RoleModel::defaults);
        AuditedAccess audited = new AuditedAccess(engine, new AuditLog(camel.createProducerTemplate()));
        Access checks = new Access(new OidcAccessChecks(audited, new VaultPathGuard(vault)), audited);
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:vault_browser_" + System.nanoTime() + ";MODE=PostgreSQL;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration/common", "classpath:db/migration/h2")
                .load().migrate();
        JdbcNoteStore store = new JdbcNoteStore(h2);
        return new VaultBrowser(graph, store, new VaultFiles(vault), e -> OPS, checks, scopes,
                new NoteLookup(graph, store));
    }

    private List<String> listing(VaultBrowser browser) {
        return browser.listing(new DefaultExchange(camel), "p").files().stream().map(VaultViews.FileEntry::path)
                .toList();
    }

    /** Writes a policy and moves its modification time forward, so the one-stat check sees the edit at once. */
    private static void policy(Path file, String yaml, int step) throws Exception {
        Files.writeString(file, yaml);
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(step)));
    }

    private static WikiLink link(String from, String to) {
        return new WikiLink(from, to, to, null, null, null, false, LinkType.MEMORY, to);
    }
}
