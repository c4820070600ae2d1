package io.poimen.memory.security.policy;

import io.poimen.memory.api.ApiException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Checks a vault path taken from a request before anything touches the disk or a policy. Rejected with 400
 * {@code {"error":"bad_path"}}: empty, absolute ({@code /x}, {@code C:/x}, {@code ~}), {@code ..} or {@code .}
 * segments, empty segments, backslashes, NUL and control characters, percent-encoded traversal (decoded up to
 * three times: {@code %2e%2e%2f}, {@code %252e...}), and a path whose existing part resolves (through symlinks)
 * outside the vault.
 */
public class VaultPathGuard {
    private static final Pattern PERCENT = Pattern.compile("%[0-9a-fA-F]{2}");
    private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:.*");
    private final Path vault;

    public VaultPathGuard(Path vault) {
        this.vault = vault.toAbsolutePath().normalize();
    }

    static final int MAX_PATH_CHARS = 1024;
    static final int MAX_PROJECT_CHARS = 128;
    private static final Pattern PROJECT_NAME = Pattern.compile("[^/\\\\\\p{Cntrl}]+");

    /**
     * A project named in a request ({@code project} of a query, a listing, reachability): one folder name under
     * {@code projects/}, never a path into it (so a request cannot aim a project check at a nested folder).
     *
     * @throws ApiException 400 bad_request
     */
    public static String projectName(String project) {
        if (project == null || project.length() > MAX_PROJECT_CHARS || !PROJECT_NAME.matcher(project).matches()
                || project.equals(".") || project.equals("..")) {
            // refused before it is audited
            throw ApiException.badRequest("project must be a folder name under projects/ (at most "
                    + MAX_PROJECT_CHARS + " characters, no '/', '\\' or control characters)");
        }
        return project;
    }

    /**
     * The checked vault-relative path ({@code /}-separated, as given), lexical checks only.
     *
     * @throws ApiException 400 bad_path
     */
    public static String check(String raw) {
        if (raw == null || raw.isBlank()) {
            throw bad("path is required");
        }
        if (raw.length() > MAX_PATH_CHARS) {
            // refused before any access decision, so nothing absurd reaches the audit log
            throw bad("path over " + MAX_PATH_CHARS + " characters");
        }
        String candidate = raw;
        for (int i = 0; i < 4; i++) {
            checkPlain(candidate, raw);
            if (!PERCENT.matcher(candidate).find()) {
                break;
            }
            if (i == 3) {
                throw bad("path is percent-encoded too many times: " + printable(raw));
            }
            candidate = decodePercent(candidate);
        }
        return raw;
    }

    /**
     * {@link #check} plus the symlink check: the longest existing prefix of the path, with symlinks resolved, must
     * lie inside the vault (so a file that does not exist yet, like a draft, is checked by its folder).
     *
     * @return the absolute path inside the vault
     */
    public Path resolve(String raw) {
        String rel = check(raw);
        Path target = vault.resolve(rel).normalize();
        if (!target.startsWith(vault)) {
            throw bad("path is outside the vault: " + printable(raw));
        }
        try {
            Path root = vault.toRealPath();
            Path existing = target;
            while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                existing = existing.getParent();
            }
            if (existing == null || !existing.toRealPath().startsWith(root)) {
                throw bad("path resolves outside the vault: " + printable(raw));
            }
        } catch (IOException e) {
            throw bad("path cannot be resolved inside the vault: " + printable(raw));
        }
        return target;
    }

    private static void checkPlain(String p, String raw) {
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\' || c < 0x20 || c == 0x7f) {
                throw bad("path contains a backslash or control character: " + printable(raw));
            }
        }
        if (p.startsWith("/") || p.startsWith("~") || DRIVE.matcher(p).matches()) {
            throw bad("path must be relative to the vault: " + printable(raw));
        }
        // one trailing slash names a folder (a project or skill as a whole)
        String body = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
        for (String segment : body.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw bad("path has an empty, '.' or '..' segment: " + printable(raw));
            }
        }
    }

    private static String decodePercent(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()
                    && PERCENT.matcher(s.substring(i, i + 3)).matches()) {
                out.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String printable(String raw) {
        StringBuilder sb = new StringBuilder();
        raw.codePoints().limit(200).forEach(cp -> {
            if (cp < 0x20 || cp == 0x7f) {
                sb.append(String.format("\\x%02x", cp));
            } else {
                sb.appendCodePoint(cp);
            }
        });
        return sb.toString();
    }

    private static ApiException bad(String message) {
        return new ApiException(400, "bad_path", message);
    }
}
