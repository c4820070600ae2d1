package io.poimen.memory.security;

import io.poimen.memory.vault.VaultPaths;

/**
 * What an access policy covers: a project ({@code projects/<p>/...}), a skill ({@code shared/skills/<S>/...}) or
 * another shared folder ({@code shared/<folder>/...}; name "" for notes directly under the vault or {@code shared/}).
 *
 * @param type {@code project}, {@code skill}, {@code shared} (or {@code endpoint} for admin checks); written to {@code rbac_audit_log.resource_type}
 */
public record VaultResource(String type, String name) {
    public static final String PROJECT = "project";
    public static final String SKILL = "skill";
    public static final String SHARED = "shared";
    public static final String ENDPOINT = "endpoint";

    public VaultResource {
        if ((PROJECT.equals(type) || SKILL.equals(type)) && (name == null || name.isBlank() || name.equals(".")
                || name.equals("..") || name.chars().anyMatch(c -> c == '/' || c == '\\' || c < 0x20))) {
            throw new IllegalArgumentException(type + " must be a single folder name, got " + name);
        }
    }

    public static VaultResource project(String name) {
        return new VaultResource(PROJECT, name);
    }

    public static VaultResource skill(String name) {
        return new VaultResource(SKILL, name);
    }

    /** An API endpoint, the resource of admin checks. */
    public static VaultResource endpoint(String path) {
        return new VaultResource(ENDPOINT, path);
    }

    /** The resource a vault-relative path belongs to. */
    public static VaultResource of(String path) {
        String project = VaultPaths.projectOf(path);
        if (project != null) {
            return project(project);
        }
        String skill = VaultPaths.skillOf(path);
        if (skill != null) {
            return skill(skill);
        }
        if (VaultPaths.isShared(path)) {
            String rest = path.substring(VaultPaths.SHARED.length());
            int slash = rest.indexOf('/');
            return new VaultResource(SHARED, slash < 0 ? "" : rest.substring(0, slash));
        }
        return new VaultResource(SHARED, "");
    }

    /** Vault-relative folder of the resource's {@code _access.yaml}, or null when it can have none. */
    public String policyFolder() {
        return switch (type) {
            case PROJECT -> VaultPaths.PROJECTS + name;
            case SKILL -> VaultPaths.SHARED + "skills/" + name;
            case ENDPOINT -> null;
            default -> name.isEmpty() ? null : VaultPaths.SHARED + name;
        };
    }

    @Override
    public String toString() {
        return type + ":" + name;
    }
}
