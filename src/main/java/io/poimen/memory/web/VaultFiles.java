package io.poimen.memory.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Reads note files from the vault folder, refusing any path that could leave it: {@code ..} segments, absolute
 * paths, drive letters, backslashes, percent-escapes (a doubly encoded {@code %2e%2e} arrives here still encoded),
 * control characters, and symbolic links whose real target lies outside the vault.
 */
public class VaultFiles {
    static final int MAX_PATH_CHARS = 1024;
    private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:");

    private final Path root;

    public VaultFiles(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** {@code path} checked as a vault-relative path with forward slashes; throws 400 {@code bad_path} otherwise. */
    public static String checked(String path) {
        if (path == null || path.isBlank()) {
            throw badPath("path is required");
        }
        if (path.length() > MAX_PATH_CHARS) {
            throw badPath("path over " + MAX_PATH_CHARS + " characters");
        }
        if (path.indexOf('\\') >= 0) {
            throw badPath("backslashes are not allowed in vault paths: " + path);
        }
        if (path.startsWith("/") || DRIVE.matcher(path).find()) {
            throw badPath("vault paths are relative, got an absolute path: " + path);
        }
        if (path.indexOf('%') >= 0) {
            throw badPath("percent-escapes are not allowed in vault paths: " + path);
        }
        if (path.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw badPath("control characters are not allowed in vault paths");
        }
        for (String segment : path.split("/", -1)) {
            if (segment.equals("..") || segment.equals(".") || segment.isEmpty()) {
                throw badPath("'.', '..' and empty segments are not allowed in vault paths: " + path);
            }
        }
        return path;
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
        Path file = root.resolve(checked(path)).normalize();
        if (!file.startsWith(root)) {
            throw badPath("path leaves the vault: " + path);
        }
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw ApiException.notFound("no such note: " + path);
        }
        try {
            Path real = file.toRealPath();
            if (!real.startsWith(root.toRealPath())) {
                throw badPath("path leads outside the vault through a link: " + path);
            }
            if (!Files.isRegularFile(real)) {
                throw ApiException.notFound("not a file: " + path);
            }
            return real;
        } catch (IOException e) {
            throw ApiException.notFound("no such note: " + path);
        }
    }

    private static ApiException badPath(String message) {
        return new ApiException(400, "bad_path", message);
    }
}
