package io.poimen.memory.vault;

/** What a wiki-link points at, inferred from its target and where it resolved. */
public enum LinkType {
    MEMORY, SKILL, SHARED_CONCEPT, TOOL, UNKNOWN;

    public String dbValue() {
        return name().toLowerCase();
    }
}
