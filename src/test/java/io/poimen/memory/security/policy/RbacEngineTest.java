package io.poimen.memory.security.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.testsupport.ExampleVault;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.FileSystemUtils;

/** The notes' algorithm and reason codes on the example vault's policies, plus the fail-closed cases. */
class RbacEngineTest {
    static final Caller CHARLIE = caller("charlie", List.of("platform-team", "devops-team"), List.of("viewer"));
    static final Caller ALICE = caller("alice", List.of("data-team"), List.of("viewer"));
    static final Caller BOB = caller("bob", List.of("ml-team"), List.of("editor"));

    @TempDir Path tmp;
    Path vault;
    Path policies;
    RbacEngine engine;
    PolicyStore store;

    static Caller caller(String sub, List<String> groups, List<String> roles) {
        List<String> perms = List.copyOf(RoleModel.defaults().permissionsOf(roles));
        return new Caller(sub, sub, null, groups, roles, perms, false);
    }

    @BeforeEach
    void exampleVault() throws IOException {
        vault = tmp.resolve("vault");
        policies = tmp.resolve("policies");
        ExampleVault.copyTo(vault);
        FileSystemUtils.copyRecursively(Path.of("policies"), policies);
        store = new PolicyStore(vault, policies);
        engine = new RbacEngine(store, new RolePolicy(policies));
    }

    AccessDecision read(Caller c, VaultResource r) {
        return engine.check(c, r, Action.READ);
    }

    @Test
    void theNotesScenarios() {
        assertThat(read(CHARLIE, VaultResource.project("poimen")))
                .extracting(AccessDecision::allowed, AccessDecision::reason).containsExactly(true, "in_allowed_group");
        assertThat(read(ALICE, VaultResource.project("poimen")))
                .extracting(AccessDecision::allowed, AccessDecision::reason)
                .containsExactly(false, "not_in_allowed_groups");
        assertThat(read(CHARLIE, VaultResource.skill("SKILL-private-debug")))
                .extracting(AccessDecision::allowed, AccessDecision::reason)
                .containsExactly(false, "not_in_owner_group");
        assertThat(read(BOB, VaultResource.skill("SKILL-private-debug")))
                .extracting(AccessDecision::allowed, AccessDecision::reason).containsExactly(true, "owner_group");
        assertThat(read(ALICE, VaultResource.project("rust-guide")).reason()).isEqualTo("access_level_public");
        assertThat(read(ALICE, VaultResource.of("shared/concepts/gitops.md")).reason()).isEqualTo("access_level_public");
    }

    /** docs/security.md and the design notes: {@code group} admits {@code allowed_groups}; the owners are not implied. */
    @Test
    void aGroupPolicyAdmitsItsAllowedGroupsOnlyNotItsOwnerGroup() throws IOException {
        Files.writeString(vault.resolve("projects/poimen/_access.yaml"), """
                project: poimen
                owner_group: ml-team
                access_level: group
                allowed_groups: [platform-team]
                """);
        assertThat(read(BOB, VaultResource.project("poimen")))
                .extracting(AccessDecision::allowed, AccessDecision::reason)
                .containsExactly(false, "not_in_allowed_groups");
        assertThat(read(CHARLIE, VaultResource.project("poimen")).allowed()).isTrue();
    }

    @Test
    void requiredPermissionComesFromTheTokenOrTheRoles() {
        // SKILL-kubernetes-debugging requires skill:read; viewer grants it through role_permissions
        assertThat(read(CHARLIE, VaultResource.skill("SKILL-kubernetes-debugging")).allowed()).isTrue();
        Caller noRoles = new Caller("eve", "eve", null, List.of("platform-team"), List.of(), List.of(), false);
        assertThat(read(noRoles, VaultResource.skill("SKILL-kubernetes-debugging")).reason())
                .isEqualTo("permission_required: skill:read");
        Caller tokenPermission = new Caller("eve", "eve", null, List.of("platform-team"), List.of(),
                List.of("skill:read"), false);
        assertThat(read(tokenPermission, VaultResource.skill("SKILL-kubernetes-debugging")).allowed()).isTrue();
    }

    @Test
    void requiredRoleIsMetByAHigherRoleOnly() throws IOException {
        Files.writeString(vault.resolve("projects/poimen/_access.yaml"), """
                project: poimen
                owner_group: platform-team
                access_level: group
                allowed_groups: [platform-team, ml-team]
                required_role: editor
                """);
        assertThat(read(CHARLIE, VaultResource.project("poimen")).reason()).isEqualTo("role_requirement_failed: need editor");
        assertThat(read(BOB, VaultResource.project("poimen")).reason()).isEqualTo("in_allowed_group");
        Caller admin = caller("dana", List.of("platform-team"), List.of("admin"));
        assertThat(read(admin, VaultResource.project("poimen")).allowed()).isTrue();
    }

    @Test
    void writeNeedsReadAccessAndTheWriteRoleAndWriteGroups() throws IOException {
        assertThat(engine.check(CHARLIE, VaultResource.project("poimen"), Action.WRITE).reason())
                .isEqualTo("role_requirement_failed: need editor");
        Caller editor = caller("carol", List.of("devops-team"), List.of("editor"));
        assertThat(engine.check(editor, VaultResource.project("poimen"), Action.WRITE))
                .extracting(AccessDecision::allowed, AccessDecision::reason).containsExactly(true, "in_allowed_group");
        assertThat(engine.check(BOB, VaultResource.project("poimen"), Action.WRITE).reason())
                .isEqualTo("not_in_allowed_groups");
        Files.writeString(vault.resolve("projects/poimen/_access.yaml"), """
                project: poimen
                access_level: group
                allowed_groups: [platform-team, devops-team]
                write_groups: [platform-team]
                """);
        assertThat(engine.check(editor, VaultResource.project("poimen"), Action.WRITE).reason())
                .isEqualTo("not_in_write_groups");
    }

    @Test
    void adminNeedsTheAdminRoleOrPermission() {
        assertThat(engine.check(CHARLIE, VaultResource.endpoint("/memory/audit"), Action.ADMIN).reason())
                .isEqualTo("role_requirement_failed: need admin");
        assertThat(engine.check(caller("dana", List.of(), List.of("admin")), VaultResource.endpoint("x"),
                Action.ADMIN).allowed()).isTrue();
        assertThat(engine.check(new Caller("ops", "ops", null, List.of(), List.of(), List.of("memory:admin"), false),
                VaultResource.endpoint("x"), Action.ADMIN).allowed()).isTrue();
    }

    @Test
    void aBrokenPolicyKeepsItsLastGoodVersionAndIsReportedAndOneBrokenFromTheStartDenies() throws IOException {
        Path policy = vault.resolve("projects/rust-guide/_access.yaml");
        String good = Files.readString(policy);
        assertThat(read(ALICE, VaultResource.project("rust-guide")).allowed()).isTrue();
        List<String> broken = List.of("access_level: [public", "access_level: everyone\n", "project: rust-guide\n",
                "- just\n- a list\n", "access_level: private\n", "project: poimen\naccess_level: public\n",
                "access_level: public\nallowed_groups: nope\n", "access_level: public\nalowed_groups: []\n");
        int step = 0;
        for (String b : broken) {
            edit(policy, b, ++step);
            assertThat(read(ALICE, VaultResource.project("rust-guide")))
                    .as(b).extracting(AccessDecision::allowed, AccessDecision::reason)
                    .containsExactly(true, "access_level_public");
            assertThat(store.rejected()).as(b).containsOnlyKeys(policy.toString());
            assertThat(store.rejected().get(policy.toString())).startsWith("rejected, previous version in force: ")
                    .contains(policy.toString());
        }
        assertThat(store.rejected().get(policy.toString())).contains(":2: unknown key 'alowed_groups'");

        // a fresh hub (nothing earlier in force) denies on the same broken file
        PolicyStore fresh = new PolicyStore(vault, policies);
        RbacEngine restarted = new RbacEngine(fresh, new RolePolicy(policies));
        assertThat(restarted.check(ALICE, VaultResource.project("rust-guide"), Action.READ).reason())
                .isEqualTo("policy_unparseable");
        assertThat(fresh.rejected().get(policy.toString())).startsWith("rejected, access it governs is DENIED: ");

        // fixed: the new version applies and nothing is reported any more
        edit(policy, good.replace("access_level: public", "access_level: group"), ++step);
        assertThat(read(ALICE, VaultResource.project("rust-guide")).reason()).isEqualTo("not_in_allowed_groups");
        assertThat(store.rejected()).isEmpty();
        assertThat(restarted.check(ALICE, VaultResource.project("rust-guide"), Action.READ).reason())
                .isEqualTo("not_in_allowed_groups");
    }

    @Test
    void aUnitThatFirstAsksWhileASharedPolicyIsBrokenGetsItsLastGoodVersion() throws IOException {
        Path shared = vault.resolve("shared/" + PolicyStore.POLICY_FILE);
        edit(shared, "access_level: group\nallowed_groups: [platform-team]\n", 1);
        assertThat(read(CHARLIE, VaultResource.of("shared/concepts/gitops.md")).allowed()).isTrue();
        edit(shared, "access_level: group\nallowed_groups: platform-team\n", 2);
        // shared/_access.yaml is parsed per unit: a skill not asked for before still gets the last good version
        assertThat(read(ALICE, VaultResource.skill("SKILL-kubernetes-debugging")).reason())
                .isEqualTo("not_in_allowed_groups");
        assertThat(read(CHARLIE, VaultResource.skill("SKILL-kubernetes-debugging")).allowed()).isTrue();
    }

    static void edit(Path file, String text, int step) throws IOException {
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(step)));
    }

    @Test
    void missingPoliciesUseTheDefaultsAndABrokenDefaultsFileDenies() throws IOException {
        Files.createDirectories(vault.resolve("projects/new-project"));
        assertThat(read(CHARLIE, VaultResource.project("new-project")).reason()).isEqualTo("project_default_deny");
        assertThat(read(CHARLIE, VaultResource.of("shared/concepts/gitops.md")).allowed()).isTrue();

        Files.writeString(policies.resolve("default.yaml"), "default_access: deny\nproject_default: public\n");
        assertThat(read(CHARLIE, VaultResource.project("new-project")).reason()).isEqualTo("access_level_public");
        assertThat(read(CHARLIE, VaultResource.of("shared/concepts/gitops.md")).reason()).isEqualTo("default_access_deny");

        // broken later: the last good defaults stay; broken from the start (a fresh hub): deny
        edit(policies.resolve("default.yaml"), "default_access: [\n", 1);
        assertThat(read(CHARLIE, VaultResource.of("shared/concepts/gitops.md")).reason()).isEqualTo("default_access_deny");
        RbacEngine fresh = new RbacEngine(new PolicyStore(vault, policies), new RolePolicy(policies));
        assertThat(fresh.check(CHARLIE, VaultResource.of("shared/concepts/gitops.md"), Action.READ).reason())
                .isEqualTo("policy_unparseable");
        assertThat(fresh.check(BOB, VaultResource.skill("SKILL-private-debug"), Action.WRITE).reason())
                .isEqualTo("policy_unparseable");
    }

    @Test
    void resourceNamesCannotEscapeTheirFolder() {
        assertThatThrownBy(() -> VaultResource.project("../shared")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VaultResource.project("a/b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VaultResource.skill("..")).isInstanceOf(IllegalArgumentException.class);
        assertThat(VaultResource.of("shared/skills/SKILL-x/SKILL.md")).isEqualTo(VaultResource.skill("SKILL-x"));
        assertThat(VaultResource.of("shared/concepts/a.md")).isEqualTo(new VaultResource("shared", "concepts"));
        assertThat(VaultResource.of("projects/p/b.md")).isEqualTo(VaultResource.project("p"));
        assertThat(VaultResource.of("projects/p/a/b.md")).isEqualTo(new VaultResource("project", "p", "projects/p/a"))
                .isNotEqualTo(VaultResource.project("p"));
        assertThat(VaultResource.of("shared/skills/SKILL-x.md")).isEqualTo(VaultResource.skill("SKILL-x"));
        assertThat(VaultResource.of("shared/top.md")).isEqualTo(new VaultResource("shared", ""));
        assertThat(VaultResource.of("README.md").notesFolder()).isEmpty();
    }

    @Test
    void nestedPoliciesOnlyNarrowTheirParents() throws IOException {
        // poimen: group access for platform-team and devops-team
        Caller both = caller("dana", List.of("platform-team", "ml-team"), List.of("editor"));
        Path secret = Files.createDirectories(vault.resolve("projects/poimen/runbooks/secret"));
        Files.writeString(secret.resolve(PolicyStore.POLICY_FILE), "access_level: private\nowner_group: ml-team\n");
        VaultResource deep = VaultResource.of("projects/poimen/runbooks/secret/x/note.md");
        assertThat(read(both, deep).allowed()).isTrue();
        assertThat(read(BOB, deep).reason()).isEqualTo("not_in_allowed_groups");
        assertThat(read(CHARLIE, deep).reason())
                .isEqualTo("not_in_owner_group (projects/poimen/runbooks/secret/_access.yaml)");
        assertThat(read(CHARLIE, VaultResource.of("projects/poimen/runbooks/other.md")).allowed()).isTrue();

        // a public child of a private skill does not widen it
        Path open = Files.createDirectories(vault.resolve("shared/skills/SKILL-private-debug/public"));
        Files.writeString(open.resolve(PolicyStore.POLICY_FILE), "access_level: public\n");
        assertThat(read(CHARLIE, VaultResource.of("shared/skills/SKILL-private-debug/public/a.md")).allowed()).isFalse();
        assertThat(read(BOB, VaultResource.of("shared/skills/SKILL-private-debug/public/a.md")).allowed()).isTrue();

        // shared/_access.yaml narrows every shared unit, skills included
        Files.writeString(vault.resolve("shared/" + PolicyStore.POLICY_FILE), "access_level: group\n"
                + "allowed_groups: [ml-team, data-team]\n");
        assertThat(read(CHARLIE, VaultResource.of("shared/concepts/gitops.md")).allowed()).isFalse();
        assertThat(read(CHARLIE, VaultResource.skill("SKILL-kubernetes-debugging")).allowed()).isFalse();
        assertThat(read(ALICE, VaultResource.of("shared/concepts/gitops.md")).allowed()).isTrue();

        // a child that never parsed denies what is below it, not its parent
        Path broken = Files.createDirectories(vault.resolve("projects/poimen/runbooks/broken"));
        Files.writeString(broken.resolve(PolicyStore.POLICY_FILE), "access_level: [private\n");
        assertThat(read(both, VaultResource.of("projects/poimen/runbooks/broken/n.md")).reason())
                .isEqualTo("policy_unparseable");
        assertThat(read(both, VaultResource.project("poimen")).allowed()).isTrue();

        // write_groups of every policy on the path apply
        Files.writeString(secret.resolve(PolicyStore.POLICY_FILE), "access_level: public\nwrite_groups: [nobody]\n");
        Caller editor = both;
        assertThat(engine.check(editor, deep, Action.WRITE).reason())
                .isEqualTo("not_in_write_groups (projects/poimen/runbooks/secret/_access.yaml)");
        assertThat(engine.check(editor, VaultResource.project("poimen"), Action.WRITE).allowed()).isTrue();
    }

    @Test
    void aProjectWithoutItsOwnPolicyStaysDeniedWhateverItsChildrenSay() throws IOException {
        Path sub = Files.createDirectories(vault.resolve("projects/new-project/docs"));
        Files.writeString(sub.resolve(PolicyStore.POLICY_FILE), "access_level: public\n");
        assertThat(read(CHARLIE, VaultResource.of("projects/new-project/docs/a.md")).reason())
                .isEqualTo("project_default_deny");
    }

    @Test
    void everyTopLevelFolderIsAUnitOfItsOwnAndWithoutAPolicyFollowsOutsideDefault() throws IOException {
        Path privateDir = Files.createDirectories(vault.resolve("private/deeper"));
        Files.createDirectories(vault.resolve("templates"));
        // no policy anywhere: outside_default (deny unless default.yaml says public) for other folders and the root
        assertThat(read(CHARLIE, VaultResource.of("private/plan.md")))
                .extracting(AccessDecision::allowed, AccessDecision::reason)
                .containsExactly(false, "outside_default_deny");
        assertThat(read(CHARLIE, VaultResource.of("README.md")).reason()).isEqualTo("outside_default_deny");
        assertThat(read(CHARLIE, VaultResource.of("projects/README.md")).reason()).isEqualTo("outside_default_deny");
        assertThat(VaultResource.of("private/deeper/x.md")).isEqualTo(new VaultResource("folder", "private",
                "private/deeper"));
        assertThat(VaultResource.of("README.md")).isEqualTo(new VaultResource("root", "", ""));

        // private/_access.yaml is that unit's top policy, a nested one narrows it
        Files.writeString(vault.resolve("private/_access.yaml"), "access_level: private\nowner_group: ml-team\n");
        Files.writeString(privateDir.resolve("_access.yaml"), "access_level: public\nrequired_role: editor\n");
        assertThat(read(CHARLIE, VaultResource.of("private/plan.md")).reason()).isEqualTo("not_in_owner_group");
        assertThat(read(BOB, VaultResource.of("private/plan.md")).allowed()).isTrue();
        assertThat(read(caller("bo", List.of("ml-team"), List.of("viewer")), VaultResource.of("private/deeper/x.md"))
                .reason()).isEqualTo("role_requirement_failed: need editor (private/deeper/_access.yaml)");
        assertThat(read(CHARLIE, VaultResource.of("templates/daily.md")).reason()).isEqualTo("outside_default_deny");

        // outside_default: public opens what has no policy; a vault-root policy governs the root notes only
        Files.writeString(policies.resolve("default.yaml"), "outside_default: public\n");
        assertThat(read(CHARLIE, VaultResource.of("templates/daily.md")).reason()).isEqualTo("access_level_public");
        assertThat(read(CHARLIE, VaultResource.of("private/plan.md")).allowed()).isFalse();
        Files.writeString(vault.resolve("_access.yaml"), "access_level: group\nallowed_groups: [ml-team]\n");
        assertThat(read(CHARLIE, VaultResource.of("README.md")).reason()).isEqualTo("not_in_allowed_groups");
        assertThat(read(BOB, VaultResource.of("README.md")).allowed()).isTrue();
        assertThat(read(CHARLIE, VaultResource.of("templates/daily.md")).allowed()).isTrue();
        assertThat(read(CHARLIE, VaultResource.project("poimen")).allowed()).isTrue();

        // projects/_access.yaml narrows every project and governs the notes directly in projects/
        Files.writeString(vault.resolve("projects/_access.yaml"), "access_level: group\n"
                + "allowed_groups: [ml-team, data-team]\n");
        assertThat(read(CHARLIE, VaultResource.project("poimen")).reason())
                .isEqualTo("not_in_allowed_groups");
        assertThat(read(ALICE, VaultResource.project("rust-guide")).allowed()).isTrue();
        assertThat(read(CHARLIE, VaultResource.of("projects/README.md")).allowed()).isFalse();
        assertThat(read(ALICE, VaultResource.of("projects/README.md")).allowed()).isTrue();
    }

    @Test
    void nearMissPolicyFileNamesAreRejectedLikeABrokenPolicy() throws IOException {
        // broken from the start: a folder with only _access.yml (or _ACCESS.yaml, ...) is denied, and reported
        for (String name : List.of("_access.yml", "_ACCESS.yaml", "_Access.YAML", "access.yaml", "_access.yaml.bak")) {
            Path dir = Files.createDirectories(vault.resolve("shared/open-" + name.replace('.', '-')));
            Files.writeString(dir.resolve(name), "access_level: public\n");
            VaultResource r = VaultResource.of("shared/open-" + name.replace('.', '-') + "/a.md");
            assertThat(read(CHARLIE, r).reason()).as(name).isEqualTo("policy_unparseable");
            assertThat(store.rejected().get(dir.resolve(name).toString())).as(name)
                    .startsWith("rejected, access it governs is DENIED: ").contains("near-miss", "_access.yaml");
        }
        // a good policy renamed into a near-miss: its last good version stays in force
        Path poimen = vault.resolve("projects/poimen");
        assertThat(read(CHARLIE, VaultResource.project("poimen")).allowed()).isTrue();
        Files.move(poimen.resolve("_access.yaml"), poimen.resolve("_access.yml"));
        assertThat(read(CHARLIE, VaultResource.project("poimen")).reason()).isEqualTo("in_allowed_group");
        assertThat(read(ALICE, VaultResource.project("poimen")).reason()).isEqualTo("not_in_allowed_groups");
        assertThat(store.rejected().get(poimen.resolve("_access.yml").toString()))
                .startsWith("rejected, previous version in force: ");
        assertThat(new RbacEngine(new PolicyStore(vault, policies), new RolePolicy(policies))
                .check(CHARLIE, VaultResource.project("poimen"), Action.READ).reason())
                .as("a fresh hub has no good version").isEqualTo("policy_unparseable");
        // renamed back: in force, nothing reported for it; a backup beside a good policy is reported, the policy holds
        Files.move(poimen.resolve("_access.yml"), poimen.resolve("_access.yaml"));
        assertThat(read(CHARLIE, VaultResource.project("poimen")).reason()).isEqualTo("in_allowed_group");
        assertThat(store.rejected()).doesNotContainKey(poimen.resolve("_access.yml").toString());
        Files.writeString(poimen.resolve("_access.yaml.bak"), "access_level: public\n");
        assertThat(read(ALICE, VaultResource.project("poimen")).reason()).isEqualTo("not_in_allowed_groups");
        assertThat(store.rejected()).containsKey(poimen.resolve("_access.yaml.bak").toString());
    }

    @Test
    void aKeyWrittenTwiceIsRejectedNotLastWins() throws IOException {
        Path dir = Files.createDirectories(vault.resolve("shared/hr"));
        Path policy = dir.resolve("_access.yaml");
        Files.writeString(policy, "access_level: private\nowner_group: hr\naccess_level: public\n");
        assertThat(read(CHARLIE, VaultResource.of("shared/hr/salaries.md")).reason()).isEqualTo("policy_unparseable");
        assertThat(store.rejected().get(policy.toString())).contains("duplicate key", "access_level");

        edit(policy, "access_level: private\nowner_group: hr\n", 1);
        assertThat(read(CHARLIE, VaultResource.of("shared/hr/salaries.md")).reason()).isEqualTo("not_in_owner_group");
        edit(policy, "access_level: private\nowner_group: hr\nowner_group: platform-team\n", 2);
        assertThat(read(CHARLIE, VaultResource.of("shared/hr/salaries.md")).reason())
                .as("the previous version stays").isEqualTo("not_in_owner_group");
        edit(policies.resolve("default.yaml"), "outside_default: deny\noutside_default: public\n", 3);
        assertThat(store.rejected()).isNotEmpty();
        assertThat(read(CHARLIE, VaultResource.of("README.md")).reason()).isEqualTo("policy_unparseable");
    }

    @Test
    void aPathUnderAFileHasNoPolicyOfItsOwnAndReportsNothing() {
        for (String under : List.of("projects/poimen/index.md/x.md", "projects/poimen/_access.yaml/x.md",
                "shared/concepts/gitops.md/a/b.md")) {
            String missing = under.replaceFirst("[^/]+\\.(md|yaml)/", "nothere/");
            for (Caller c : List.of(CHARLIE, ALICE, BOB)) {
                AccessDecision a = read(c, VaultResource.of(under));
                AccessDecision b = read(c, VaultResource.of(missing));
                assertThat(a.allowed()).as(under + " / " + missing).isEqualTo(b.allowed());
                assertThat(a.reason()).as(under).isEqualTo(b.reason()).isNotEqualTo("policy_unparseable");
            }
        }
        assertThat(store.rejected()).as("nothing for the operator to fix").isEmpty();
    }
}
