package io.poimen.memory.grc;

/** A vault file changed by a pull. @param change added, modified, deleted or renamed (then from {@code oldPath}) */
public record FileChange(String path, String change, String oldPath) {
}
