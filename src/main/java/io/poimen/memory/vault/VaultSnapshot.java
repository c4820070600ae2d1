package io.poimen.memory.vault;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The files of a vault at one moment, vault-relative with {@code /}, sorted.
 *
 * @param root     the vault directory as given
 * @param files    every file (notes and attachments)
 * @param markdown the {@code .md} files
 * @param access   the {@code _access.yaml} policy files
 * @param skipped  entries left out and why (symlink out of the vault, link loop, unreadable)
 */
public record VaultSnapshot(Path root, List<String> files, List<String> markdown, List<String> access,
                            Map<String, String> skipped) {
}
