package io.poimen.memory.vault;

import java.util.Locale;

/** The rules that give a wiki-link its {@link LinkType}, before and after resolution. */
public final class LinkTypes {
    static final String SHARED_PREFIX = "shared:";

    private LinkTypes() {
    }

    /** Type guessed from the target as written (the notes' rules): SKILL-, shared:, .md, else unknown. */
    public static LinkType inferFromTarget(String target) {
        if (target == null || target.isEmpty()) {
            return LinkType.UNKNOWN;
        }
        if (target.contains("SKILL-")) {
            return LinkType.SKILL;
        }
        if (target.startsWith(SHARED_PREFIX) || target.startsWith(VaultPaths.SHARED)) {
            return LinkType.SHARED_CONCEPT;
        }
        return target.toLowerCase(Locale.ROOT).endsWith(".md") ? LinkType.MEMORY : LinkType.UNKNOWN;
    }

    /** Type of a resolved link: a SKILL- target is a skill wherever it landed, else {@link #ofResolvedPath}. */
    public static LinkType ofResolution(String target, String path) {
        return target != null && target.contains("SKILL-") ? LinkType.SKILL : ofResolvedPath(path);
    }

    /** Type of a resolved link, from the vault path it resolved to. */
    public static LinkType ofResolvedPath(String path) {
        if (path.startsWith(VaultPaths.SHARED + "skills/") || path.contains("SKILL-")) {
            return LinkType.SKILL;
        }
        if (VaultPaths.isShared(path)) {
            return LinkType.SHARED_CONCEPT;
        }
        if (path.startsWith("tools/") || path.contains("/tools/")) {
            return LinkType.TOOL;
        }
        return path.toLowerCase(Locale.ROOT).endsWith(".md") ? LinkType.MEMORY : LinkType.UNKNOWN;
    }
}
