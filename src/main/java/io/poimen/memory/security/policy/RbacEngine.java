package io.poimen.memory.security.policy;

import java.util.Collection;
import java.util.function.Supplier;

/**
 * Evaluates access policies (the notes' algorithm). Pure: it records nothing; {@link AuditedAccess} audits.
 *
 * <ol>
 *   <li>No applicable policy or an unparseable one: deny ({@code policy_unparseable}, {@code project_default_deny},
 *       {@code default_access_deny}).</li>
 *   <li>Level: public → allow ({@code access_level_public}); group → allow iff the caller shares a group with
 *       {@code allowed_groups} ({@code in_allowed_group} / {@code not_in_allowed_groups}); private → allow iff the
 *       caller is in {@code owner_group} ({@code owner_group} / {@code not_in_owner_group}).</li>
 *   <li>{@code required_role} not held (nor outranked) → deny {@code role_requirement_failed: need <role>}.</li>
 *   <li>{@code required_permission} not held (token or role-granted) → deny {@code permission_required: <perm>}.</li>
 *   <li>Write only: read must be allowed, the caller must hold {@code write_min_role} of {@code default.yaml}
 *       ({@code role_requirement_failed: need <role>}) and, when the policy lists {@code write_groups}, one of
 *       them ({@code not_in_write_groups}).</li>
 * </ol>
 * Every policy on the note's folder path ({@link PolicyStore#lookup}) is evaluated this way and all must allow
 * (a nested policy only narrows); a denial by a policy other than the first on the path names its file in the
 * reason, e.g. {@code not_in_allowed_groups (projects/p/secret/_access.yaml)}.
 */
public class RbacEngine {
    private final PolicyStore policies;
    private final Supplier<RoleModel> roles;

    public RbacEngine(PolicyStore policies, Supplier<RoleModel> roles) {
        this.policies = policies;
        this.roles = roles;
    }

    public AccessDecision check(Caller caller, VaultResource resource, Action action) {
        if (action == Action.ADMIN) {
            return checkAdmin(caller, resource);
        }
        PolicyStore.Lookup lookup = policies.lookup(resource);
        if (lookup.denyReason() != null) {
            return new AccessDecision(resource, action, false, lookup.denyReason());
        }
        RoleModel model = roles.get();
        String reason = null;
        for (PolicyStore.Governing g : lookup.chain()) {
            Verdict v = read(caller, g.policy(), model);
            boolean top = reason == null;
            if (!v.allowed()) {
                return new AccessDecision(resource, action, false, v.reason() + where(g, top));
            }
            if (top) {
                reason = v.reason();
            }
        }
        if (action == Action.WRITE) {
            PolicyDefaults d = policies.defaults();
            if (d == null) {
                return new AccessDecision(resource, action, false, "policy_unparseable");
            }
            if (d.writeMinRole() != null && !model.satisfies(caller.roles(), d.writeMinRole())) {
                return new AccessDecision(resource, action, false, "role_requirement_failed: need " + d.writeMinRole());
            }
            for (PolicyStore.Governing g : lookup.chain()) {
                if (!g.policy().writeGroups().isEmpty() && !intersects(caller.groups(), g.policy().writeGroups())) {
                    return new AccessDecision(resource, action, false, "not_in_write_groups"
                            + where(g, g == lookup.chain().get(0)));
                }
            }
        }
        return new AccessDecision(resource, action, true, reason);
    }

    private record Verdict(boolean allowed, String reason) {
    }

    /** One policy's read verdict: level, then required role, then required permission. */
    private static Verdict read(Caller caller, AccessPolicy p, RoleModel model) {
        boolean allowed;
        String reason;
        switch (p.level()) {
            case PUBLIC -> {
                allowed = true;
                reason = "access_level_public";
            }
            case PRIVATE -> {
                allowed = caller.groups().contains(p.ownerGroup());
                reason = allowed ? "owner_group" : "not_in_owner_group";
            }
            default -> {
                allowed = intersects(caller.groups(), p.allowedGroups());
                reason = allowed ? "in_allowed_group" : "not_in_allowed_groups";
            }
        }
        if (p.requiredRole() != null && !model.satisfies(caller.roles(), p.requiredRole())) {
            allowed = false;
            reason = "role_requirement_failed: need " + p.requiredRole();
        }
        if (p.requiredPermission() != null && !caller.permissions().contains(p.requiredPermission())) {
            allowed = false;
            reason = "permission_required: " + p.requiredPermission();
        }
        return new Verdict(allowed, reason);
    }

    /** Names the policy file of a denial by a policy other than the first on the path (audit only). */
    private static String where(PolicyStore.Governing g, boolean first) {
        return first || g.folder() == null ? "" : " (" + g.folder() + "/" + PolicyStore.POLICY_FILE + ")";
    }

    /** Admin endpoints: the {@code admin} role (or one above it) or the {@code memory:admin} permission. */
    private AccessDecision checkAdmin(Caller caller, VaultResource endpoint) {
        boolean allowed = roles.get().satisfies(caller.roles(), "admin") || caller.permissions().contains("memory:admin");
        return new AccessDecision(endpoint, Action.ADMIN, allowed, allowed ? "admin_role"
                : "role_requirement_failed: need admin");
    }

    private static boolean intersects(Collection<String> a, Collection<String> b) {
        return a.stream().anyMatch(b::contains);
    }
}
