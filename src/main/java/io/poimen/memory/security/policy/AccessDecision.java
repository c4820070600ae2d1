package io.poimen.memory.security.policy;

/**
 * One allow or deny with its reason code: {@code access_level_public}, {@code in_allowed_group},
 * {@code not_in_allowed_groups}, {@code owner_group}, {@code not_in_owner_group},
 * {@code role_requirement_failed: need <role>}, {@code permission_required: <perm>}, {@code not_in_write_groups},
 * {@code policy_unparseable}, {@code project_default_deny}, {@code default_access_deny}, {@code admin_role}.
 */
public record AccessDecision(VaultResource resource, Action action, boolean allowed, String reason) {

    public String decision() {
        return allowed ? "allow" : "deny";
    }
}
