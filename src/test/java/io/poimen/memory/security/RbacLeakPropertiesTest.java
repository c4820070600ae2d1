package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.retrieval.QueryContext;
import io.poimen.memory.retrieval.QueryRequest;
import io.poimen.memory.retrieval.RetrievalSettings;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.web.ApiException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.springframework.util.FileSystemUtils;

/**
 * Random policies (absent, broken or any level / role / permission), random callers and random fused candidates
 * across projects, skills and shared folders, through the real query access steps ({@link QueryAccess} over
 * {@link RbacEngine} reading the written files, audited through a Camel route). Zero leaks: nothing is returned
 * that an independent evaluation of the generated policies denies; nothing readable is dropped; every distinct
 * resource gets exactly one audit row.
 */
class RbacLeakPropertiesTest {
    static final List<String> GROUPS = List.of("g0", "g1", "g2", "g3");
    static final List<String> ROLES = List.of("viewer", "editor", "admin", "auditor");
    static final List<String> PERMISSIONS = List.of("skill:read", "memory:read", "x:y");
    static final List<VaultResource> RESOURCES = List.of(VaultResource.project("p0"), VaultResource.project("p1"),
            VaultResource.project("p2"), VaultResource.skill("SKILL-a"), VaultResource.skill("SKILL-b"),
            VaultResource.skill("SKILL-c"), new VaultResource("shared", "concepts"), new VaultResource("shared", ""));
    static CamelContext camel;
    static final List<Map<String, Object>> AUDITED = new CopyOnWriteArrayList<>();

    /** A generated policy: absent (null level and not broken), broken, or a level with its fields. */
    record Policy(boolean present, boolean broken, AccessLevel level, String owner, List<String> allowed,
                  String requiredRole, String requiredPermission) {
    }

    record Scenario(Map<VaultResource, Policy> policies, boolean sharedPublic, boolean projectPublic, Caller caller,
                    String project, List<String> chunkIds) {
    }

    @BeforeContainer
    static void auditRoute() throws Exception {
        camel = new DefaultCamelContext();
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(AuditLog.ROUTE).process(e -> AUDITED.addAll(e.getMessage().getBody(List.class)));
            }
        });
        camel.start();
    }

    @AfterContainer
    static void stopCamel() {
        camel.stop();
    }

    @Property(tries = 2000, edgeCases = EdgeCasesMode.MIXIN)
    void noResultIsEverReturnedThatThePoliciesDeny(@ForAll("scenarios") Scenario s) throws IOException {
        Path root = Files.createTempDirectory("rbac-prop");
        try {
            Path vault = root.resolve("vault");
            Path policies = Files.createDirectories(root.resolve("policies"));
            write(vault, policies, s);
            RbacEngine engine = new RbacEngine(new PolicyStore(vault, policies), RoleModel::defaults);
            QueryAccess access = new QueryAccess(e -> s.caller(),
                    new AuditedAccess(engine, new AuditLog(camel.createProducerTemplate())));
            AUDITED.clear();

            QueryContext ctx = new QueryContext(new QueryRequest(s.project(), "q", null, null, null, null, null, null,
                    null), RetrievalSettings.defaults());
            ctx.fused = s.chunkIds().stream().map(id -> new FusedCandidate(id, 1.0, Map.of(), "weighted")).toList();
            Exchange exchange = new DefaultExchange(camel);

            boolean projectReadable = oracle(s, VaultResource.project(s.project()));
            if (!projectReadable) {
                assertThatThrownBy(() -> access.checkProject(ctx, exchange)).isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.status()).isEqualTo(403));
                assertThat(AUDITED).singleElement().satisfies(r -> assertThat(r).containsEntry("decision", "deny"));
                return;
            }
            access.checkProject(ctx, exchange);
            access.filterResults(ctx, exchange);

            List<String> returned = ctx.fused.stream().map(FusedCandidate::chunkId).toList();
            List<String> expected = new ArrayList<>();
            for (String id : s.chunkIds()) {
                if (oracle(s, VaultResource.of(ResultAccessFilter.pathOf(id)))) {
                    expected.add(id);
                }
            }
            assertThat(returned).as("leak or over-filtering").isEqualTo(expected);
            long distinct = s.chunkIds().stream().map(id -> VaultResource.of(ResultAccessFilter.pathOf(id)))
                    .filter(r -> !r.equals(VaultResource.project(s.project()))).distinct().count();
            assertThat(AUDITED).hasSize(1 + (int) distinct)
                    .allSatisfy(r -> assertThat(r).containsEntry("user_id", s.caller().subject()));
        } finally {
            FileSystemUtils.deleteRecursively(root);
        }
    }

    /** The notes' algorithm, written again from the generated model (not from the files). */
    static boolean oracle(Scenario s, VaultResource r) {
        Policy p = s.policies().get(r);
        // notes directly under shared/ (or the vault root) have no policy folder: the defaults govern them
        if (p == null || !p.present() || r.policyFolder() == null) {
            return VaultResource.PROJECT.equals(r.type()) ? s.projectPublic() : s.sharedPublic();
        }
        if (p.broken()) {
            return false;
        }
        Caller c = s.caller();
        boolean allowed = switch (p.level()) {
            case PUBLIC -> true;
            case PRIVATE -> c.groups().contains(p.owner());
            case GROUP -> c.groups().stream().anyMatch(p.allowed()::contains);
        };
        if (p.requiredRole() != null) {
            int need = ROLES.subList(0, 3).indexOf(p.requiredRole());
            allowed &= c.roles().contains(p.requiredRole())
                    || need >= 0 && c.roles().stream().anyMatch(role -> ROLES.subList(0, 3).indexOf(role) > need);
        }
        if (p.requiredPermission() != null) {
            allowed &= c.permissions().contains(p.requiredPermission());
        }
        return allowed;
    }

    static void write(Path vault, Path policies, Scenario s) throws IOException {
        Files.writeString(policies.resolve("default.yaml"), "default_access: " + (s.sharedPublic() ? "public" : "deny")
                + "\nproject_default: " + (s.projectPublic() ? "public" : "deny") + "\n");
        for (Map.Entry<VaultResource, Policy> e : s.policies().entrySet()) {
            Policy p = e.getValue();
            String folder = e.getKey().policyFolder();
            if (!p.present() || folder == null) {
                continue;
            }
            Path dir = Files.createDirectories(vault.resolve(folder));
            StringBuilder y = new StringBuilder();
            if (p.broken()) {
                y.append("access_level: [group\n");
            } else {
                y.append(e.getKey().type()).append(": ").append(e.getKey().name()).append('\n');
                y.append("access_level: ").append(p.level().name().toLowerCase()).append('\n');
                y.append("owner_group: ").append(p.owner()).append('\n');
                y.append("allowed_groups: ").append(p.allowed()).append('\n');
                y.append("required_role: ").append(p.requiredRole() == null ? "null" : p.requiredRole()).append('\n');
                if (p.requiredPermission() != null) {
                    y.append("required_permission: ").append(p.requiredPermission()).append('\n');
                }
            }
            Files.writeString(dir.resolve(PolicyStore.POLICY_FILE), y.toString());
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Policy> policy = Combinators.combine(
                Arbitraries.integers().between(0, 9), Arbitraries.of(AccessLevel.class), Arbitraries.of(GROUPS),
                Arbitraries.subsetOf(GROUPS), Arbitraries.of(ROLES).injectNull(0.6),
                Arbitraries.of(PERMISSIONS).injectNull(0.6))
                .as((kind, level, owner, allowed, role, perm) -> new Policy(kind > 1, kind == 2, level, owner,
                        List.copyOf(allowed), role, perm));
        Arbitrary<Map<VaultResource, Policy>> policies = policy.list().ofSize(RESOURCES.size()).map(list -> {
            Map<VaultResource, Policy> m = new LinkedHashMap<>();
            for (int i = 0; i < RESOURCES.size(); i++) {
                m.put(RESOURCES.get(i), list.get(i));
            }
            return m;
        });
        Arbitrary<Caller> caller = Combinators.combine(Arbitraries.subsetOf(GROUPS), Arbitraries.subsetOf(ROLES),
                Arbitraries.subsetOf(PERMISSIONS)).as((g, r, p) -> {
                    List<String> roles = List.copyOf(r);
                    List<String> perms = new ArrayList<>(p);
                    RoleModel.defaults().permissionsOf(roles).forEach(x -> {
                        if (!perms.contains(x)) {
                            perms.add(x);
                        }
                    });
                    return new Caller("u-" + g.size() + r.size(), "u", null, List.copyOf(g), roles, perms, false);
                });
        Arbitrary<String> chunkId = Combinators.combine(Arbitraries.of(
                "projects/p0/a.md", "projects/p0/deep/b.md", "projects/p1/a.md", "projects/p2/x/y/z.md",
                "shared/skills/SKILL-a/SKILL.md", "shared/skills/SKILL-b/notes/more.md", "shared/skills/SKILL-c/SKILL.md",
                "shared/concepts/gitops.md", "shared/top.md", "README.md"), Arbitraries.integers().between(0, 3))
                .as((path, n) -> path + "#" + n);
        return Combinators.combine(policies, Arbitraries.of(true, false), Arbitraries.of(true, false), caller,
                Arbitraries.of("p0", "p1", "p2"), chunkId.list().ofMaxSize(25).uniqueElements())
                .as(Scenario::new);
    }
}
