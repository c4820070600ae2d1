package io.poimen.memory.security.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code policies/roles.yaml}: which token claims hold groups, roles and permissions, the role hierarchy and the
 * permissions each role grants.
 *
 * <p>Decision: a caller's effective permissions are the token's permissions plus {@code role_permissions} of each of
 * their roles and of every role ranked below it in {@code role_hierarchy} (an admin holds the viewer's
 * {@code skill:read}). A required role is met by that role or any role ranked above it.
 */
public record RoleModel(String groupsClaim, String rolesClaim, String permissionsClaim, List<String> hierarchy,
                        Map<String, List<String>> rolePermissions) {

    public RoleModel {
        hierarchy = List.copyOf(hierarchy);
        rolePermissions = Map.copyOf(rolePermissions);
    }

    public static RoleModel defaults() {
        return new RoleModel("groups", "roles", "permissions", List.of("viewer", "editor", "admin"),
                Map.of("viewer", List.of("memory:read", "skill:read"), "editor", List.of("memory:write"),
                        "admin", List.of("memory:admin")));
    }

    public static RoleModel fromYaml(Map<String, Object> yaml) {
        RoleModel d = defaults();
        Map<String, List<String>> perms = new LinkedHashMap<>();
        Object rp = yaml.get("role_permissions");
        if (rp instanceof Map<?, ?> m) {
            m.forEach((k, v) -> perms.put(String.valueOf(k), Yamls.strings(v, "role_permissions." + k)));
        } else if (rp != null) {
            throw new IllegalArgumentException("role_permissions must be a mapping");
        }
        return new RoleModel(Yamls.string(yaml, "groups_claim", d.groupsClaim()),
                Yamls.string(yaml, "roles_claim", d.rolesClaim()),
                Yamls.string(yaml, "permissions_claim", d.permissionsClaim()),
                yaml.containsKey("role_hierarchy") ? Yamls.strings(yaml.get("role_hierarchy"), "role_hierarchy")
                        : d.hierarchy(),
                rp != null ? perms : d.rolePermissions());
    }

    /** True when one of {@code roles} is {@code required} or ranks above it. */
    public boolean satisfies(Collection<String> roles, String required) {
        if (roles.contains(required)) {
            return true;
        }
        int need = hierarchy.indexOf(required);
        return need >= 0 && roles.stream().anyMatch(r -> hierarchy.indexOf(r) > need);
    }

    /** Permissions granted by {@code roles}, including those of lower-ranked roles. */
    public Set<String> permissionsOf(Collection<String> roles) {
        Set<String> out = new LinkedHashSet<>();
        for (String role : roles) {
            List<String> implied = new ArrayList<>();
            int rank = hierarchy.indexOf(role);
            if (rank < 0) {
                implied.add(role);
            } else {
                implied.addAll(hierarchy.subList(0, rank + 1));
            }
            implied.forEach(r -> out.addAll(rolePermissions.getOrDefault(r, List.of())));
        }
        return out;
    }
}
