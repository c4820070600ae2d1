package io.poimen.memory.security.policy;

import java.util.List;
import java.util.Map;

/**
 * One {@code _access.yaml}.
 *
 * @param ownerGroup         the group of {@code private} access (required for private)
 * @param level              public, group or private
 * @param allowedGroups      groups of {@code group} access
 * @param requiredRole       a role the caller must hold (or outrank) in addition, or null
 * @param requiredPermission a permission the caller must hold in addition, or null
 * @param writeGroups        when not empty, write actions also need one of these groups
 */
public record AccessPolicy(String ownerGroup, AccessLevel level, List<String> allowedGroups, String requiredRole,
                           String requiredPermission, List<String> writeGroups) {

    public AccessPolicy {
        allowedGroups = List.copyOf(allowedGroups);
        writeGroups = List.copyOf(writeGroups);
    }

    public static AccessPolicy open() {
        return new AccessPolicy(null, AccessLevel.PUBLIC, List.of(), null, null, List.of());
    }

    /**
     * Parses and checks a policy for {@code resource}; a {@code project:} or {@code skill:} key naming another
     * resource than the folder it sits in is an error (a copied file must not grant access by accident).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static AccessPolicy fromYaml(Map<String, Object> yaml, VaultResource resource) {
        for (String key : List.of(VaultResource.PROJECT, VaultResource.SKILL)) {
            Object named = yaml.get(key);
            if (named != null && (!key.equals(resource.type()) || !resource.name().equals(String.valueOf(named)))) {
                throw new IllegalArgumentException(key + ": " + named + " does not match " + resource);
            }
        }
        if (yaml.get("access_level") == null) {
            throw new IllegalArgumentException("access_level is required");
        }
        AccessLevel level = AccessLevel.parse(String.valueOf(yaml.get("access_level")));
        String owner = Yamls.string(yaml, "owner_group", null);
        if (level == AccessLevel.PRIVATE && owner == null) {
            throw new IllegalArgumentException("access_level private needs owner_group");
        }
        return new AccessPolicy(owner, level, Yamls.strings(yaml.get("allowed_groups"), "allowed_groups"),
                Yamls.string(yaml, "required_role", null), Yamls.string(yaml, "required_permission", null),
                Yamls.strings(yaml.get("write_groups"), "write_groups"));
    }
}
