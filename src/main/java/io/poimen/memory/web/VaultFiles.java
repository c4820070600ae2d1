package io.poimen.memory.web;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.security.policy.VaultPathGuard;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads note files from the vault folder, refusing (through {@link VaultPathGuard}) any path that could leave it:
 * {@code ..} segments, absolute paths, drive letters, backslashes, percent-encoded traversal, control characters,
 * and symbolic links whose real target lies outside the vault.
 */
public class VaultFiles {
    private final VaultPathGuard guard;

    public VaultFiles(Path root) {
        this.guard = new VaultPathGuard(root);
    }

    /** {@code path} checked as a vault-relative path ({@link VaultPathGuard}); throws 400 {@code bad_path}. */
    public static String checked(String path) {
        return VaultPathGuard.check(path);
    }

    /** Text of the vault file {@code path} (checked); 404 when it does not exist, 400 when it resolves outside. */
    public String read(String path) {
        Path file = resolve(path);
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw ApiException.notFound("cannot read " + path + ": " + e.getClass().getSimpleName());
        }
    }

    Path resolve(String path) {
        Path file = guard.resolve(path);
        if (!Files.isRegularFile(file)) {
            throw ApiException.notFound("no such note: " + path);
        }
        return file;
    }
}
