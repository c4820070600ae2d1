package io.poimen.memory.vault;

/** Conventions of the vault layout: {@code projects/<p>/...} and {@code shared/...}. */
public final class VaultPaths {
    public static final String PROJECTS = "projects/";
    public static final String SHARED = "shared/";

    private VaultPaths() {
    }

    /** Project name of a vault path, or null for shared and top-level notes. */
    public static String projectOf(String path) {
        if (!path.startsWith(PROJECTS)) {
            return null;
        }
        int end = path.indexOf('/', PROJECTS.length());
        return end < 0 ? null : path.substring(PROJECTS.length(), end);
    }

    /**
     * A markdown note: ends in {@code .md} (any case) and is not named like an access policy
     * ({@link PolicyFileNames}, e.g. {@code _access.yaml.md}), which is never indexed or served as a note.
     */
    public static boolean isNote(String path) {
        int slash = path.lastIndexOf('/');
        return path.toLowerCase(java.util.Locale.ROOT).endsWith(".md")
                && !PolicyFileNames.policyName(path.substring(slash + 1));
    }

    public static boolean isShared(String path) {
        return path.startsWith(SHARED);
    }

    /** Skill name for paths under {@code shared/skills/<SKILL-x>/...} (or a file {@code shared/skills/SKILL-x.md}). */
    public static String skillOf(String path) {
        String prefix = SHARED + "skills/";
        if (!path.startsWith(prefix)) {
            return null;
        }
        String rest = path.substring(prefix.length());
        int slash = rest.indexOf('/');
        String name = slash < 0 ? rest : rest.substring(0, slash);
        if (name.endsWith(".md")) {
            name = name.substring(0, name.length() - 3);
        }
        return name.isEmpty() ? null : name;
    }

    /**
     * The group of notes that share one read decision (the access decision of a note is made per folder): the
     * note's folder ("" at the vault's root), except a skill file directly under {@code shared/skills/}, which is
     * a unit of its own (its path).
     */
    public static String accessGroupOf(String path) {
        int slash = path.lastIndexOf('/');
        String folder = slash < 0 ? "" : path.substring(0, slash);
        return folder.equals(SHARED + "skills") ? path : folder;
    }
}
