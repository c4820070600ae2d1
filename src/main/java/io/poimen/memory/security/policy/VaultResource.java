package io.poimen.memory.security.policy;

import io.poimen.memory.vault.VaultPaths;

/**
 * What an access decision covers: the notes of one folder of a project ({@code projects/<p>/...}), of a skill
 * ({@code shared/skills/<S>/...}), of another shared folder ({@code shared/<folder>/...}; name "" for notes directly
 * under {@code shared/}), of another top-level folder ({@code private/...}, and {@code projects/} for the notes
 * directly in it), or the notes directly in the vault root. {@code type} and {@code name} name the unit whose top
 * folder holds the main policy; {@code folder} is the vault-relative folder of the notes, where nested
 * {@code _access.yaml} files may narrow it ({@link PolicyStore}). Decisions are made, cached and audited per
 * resource, so per folder.
 *
 * @param type   {@code project}, {@code skill}, {@code shared}, {@code folder} (a top-level folder other than
 *               {@code projects/} and {@code shared/}), {@code root} (notes directly in the vault root), or
 *               {@code endpoint} for admin checks; written to {@code rbac_audit_log.resource_type}
 * @param folder vault-relative folder of the notes (the unit's top folder for resources made by name), null for
 *               endpoints
 */
public record VaultResource(String type, String name, String folder) {
    public static final String PROJECT = "project";
    public static final String SKILL = "skill";
    public static final String SHARED = "shared";
    public static final String FOLDER = "folder";
    public static final String ROOT = "root";
    public static final String ENDPOINT = "endpoint";

    public VaultResource {
        if ((PROJECT.equals(type) || SKILL.equals(type) || FOLDER.equals(type)) && (name == null || name.isBlank() || name.equals(".")
                || name.equals("..") || name.chars().anyMatch(c -> c == '/' || c == '\\' || c < 0x20))) {
            throw new IllegalArgumentException(type + " must be a single folder name, got " + name);
        }
    }

    /** The unit itself: its top folder. */
    public VaultResource(String type, String name) {
        this(type, name, null);
    }

    public static VaultResource project(String name) {
        return new VaultResource(PROJECT, name, VaultPaths.PROJECTS + name);
    }

    public static VaultResource skill(String name) {
        return new VaultResource(SKILL, name, VaultPaths.SHARED + "skills/" + name);
    }

    /** An API endpoint, the resource of admin checks. */
    public static VaultResource endpoint(String path) {
        return new VaultResource(ENDPOINT, path, null);
    }

    /** The resource a vault-relative path belongs to: its unit, and its own folder. */
    public static VaultResource of(String path) {
        VaultResource unit = unitOf(path);
        int slash = path.lastIndexOf('/');
        String parent = slash < 0 ? "" : path.substring(0, slash);
        String root = unit.unitFolder();
        boolean inside = root != null && (parent.equals(root) || parent.startsWith(root + "/"));
        return new VaultResource(unit.type, unit.name, inside ? parent : root == null ? "" : root);
    }

    private static VaultResource unitOf(String path) {
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
        int slash = path.indexOf('/');
        // a top-level folder of its own (also projects/ for the notes directly in it), or the vault root
        return slash < 0 ? new VaultResource(ROOT, "", "") : new VaultResource(FOLDER, path.substring(0, slash));
    }

    /**
     * Vault-relative top folder of the unit (its main {@code _access.yaml}; "" for the vault root), or null for an
     * endpoint.
     */
    public String unitFolder() {
        return switch (type) {
            case PROJECT -> VaultPaths.PROJECTS + name;
            case SKILL -> VaultPaths.SHARED + "skills/" + name;
            case FOLDER -> name;
            case ROOT -> "";
            case ENDPOINT -> null;
            default -> name.isEmpty() ? "shared" : VaultPaths.SHARED + name;
        };
    }

    /** The folder of the notes this resource covers ({@link #unitFolder()} when made by name). */
    public String notesFolder() {
        return folder != null ? folder : unitFolder();
    }

    /** Vault-relative folder of the unit's own {@code _access.yaml}, or null when it can have none. */
    public String policyFolder() {
        return unitFolder();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VaultResource r && type.equals(r.type) && java.util.Objects.equals(name, r.name)
                && java.util.Objects.equals(notesFolder(), r.notesFolder());
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(type, name, notesFolder());
    }

    @Override
    public String toString() {
        String f = notesFolder();
        return type + ":" + name + (f != null && !f.equals(unitFolder()) ? " (" + f + ")" : "");
    }
}
