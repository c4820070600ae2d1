package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves wiki-links against the whole vault the way Obsidian does. In order: a heading-only link is its own
 * note; a {@code ./} or {@code ../} target is tried relative to the source folder; then an exact vault path;
 * then a path suffix; then a file name anywhere (case-insensitive); then front matter aliases. Several
 * candidates go to the closest one: longest common folder prefix with the source, then shortest path, then
 * alphabetical. Each path form also matches a folder note ({@code <dir>/SKILL.md}, {@code <dir>/index.md},
 * {@code <dir>/<dir>.md}), so {@code [[shared:skills/SKILL-x]]} reaches the skill's {@code SKILL.md}.
 * Attachments resolve the same way by their full file name ({@code ![[diagram.png]]}, {@code ![a](../img/d.png)},
 * {@code ![a](/projects/p/img/d.png)}). A policy file ({@link PolicyFileNames}) is never a target: the hub serves
 * it to no one, so a link to it is unresolved and reported. Immutable and thread-safe once built.
 */
public final class LinkResolver {
    private static final List<String> FOLDER_NOTES = List.of("SKILL.md", "index.md");

    private final Map<String, String> exact = new HashMap<>();
    private final Map<String, List<String>> byLowerPath = new HashMap<>();
    private final Map<String, List<String>> byLowerName = new HashMap<>();
    private final Map<String, List<String>> byLowerAlias = new HashMap<>();

    private LinkResolver(Collection<String> paths, Map<String, List<String>> aliasesByPath) {
        for (String p : paths) {
            if (PolicyFileNames.policyName(fileName(p))) {
                continue;
            }
            exact.put(p, p);
            add(byLowerPath, p.toLowerCase(Locale.ROOT), p);
            add(byLowerName, lower(fileName(p)), p);
        }
        aliasesByPath.forEach((path, aliases) -> aliases.forEach(a -> add(byLowerAlias, lower(a.strip()), path)));
    }

    /** @param paths every vault file (notes, attachments, policy files), vault-relative with {@code /} */
    public static LinkResolver of(Collection<String> paths, Map<String, List<String>> aliasesByPath) {
        return new LinkResolver(paths, aliasesByPath == null ? Map.of() : aliasesByPath);
    }

    public WikiLink resolve(WikiLink link) {
        String source = link.sourcePath();
        String target = link.target();
        if (target.isEmpty()) {
            return link.withResolution(source, LinkTypes.ofResolvedPath(source));
        }
        Optional<String> found = Optional.empty();
        if (target.startsWith("./") || target.startsWith("../")) {
            found = asPath(normalize(parentOf(source) + "/" + target), source);
            target = target.replaceFirst("^(\\.{1,2}/)+", "");
        }
        String t = target;
        found = found.or(() -> asPath(normalize(t), source))
                .or(() -> bySuffix(t, source))
                .or(() -> byName(t, source))
                .or(() -> closest(byLowerAlias.get(lower(t)), source));
        return found.map(p -> link.withResolution(p, LinkTypes.ofResolution(link.target(), p)))
                .orElseGet(() -> link.withResolution(null, link.type()));
    }

    public List<WikiLink> resolveAll(Collection<WikiLink> links) {
        return links.stream().map(this::resolve).toList();
    }

    private Optional<String> asPath(String path, String source) {
        if (path == null || path.isEmpty()) {
            return Optional.empty();
        }
        for (String candidate : forms(path)) {
            if (exact.containsKey(candidate)) {
                return Optional.of(candidate);
            }
        }
        for (String candidate : forms(path)) {
            Optional<String> hit = closest(byLowerPath.get(lower(candidate)), source);
            if (hit.isPresent()) {
                return hit;
            }
        }
        return Optional.empty();
    }

    private Optional<String> bySuffix(String target, String source) {
        String path = normalize(target);
        if (path == null || !path.contains("/")) {
            return Optional.empty();
        }
        for (String form : forms(path)) {
            String suffix = "/" + lower(form);
            List<String> hits = byLowerName.getOrDefault(lower(fileName(form)), List.of()).stream()
                    .filter(p -> lower(p).endsWith(suffix)).toList();
            Optional<String> hit = closest(hits, source);
            if (hit.isPresent()) {
                return hit;
            }
        }
        return Optional.empty();
    }

    private Optional<String> byName(String target, String source) {
        if (target.contains("/")) {
            return Optional.empty();
        }
        String name = lower(target);
        return closest(byLowerName.get(name + ".md"), source)
                .or(() -> closest(byLowerName.get(name), source))
                .or(() -> closest(FOLDER_NOTES.stream().flatMap(f -> byLowerName.getOrDefault(lower(f), List.of())
                        .stream()).filter(p -> lower(fileName(parentOf(p))).equals(name)).toList(), source));
    }

    /** The path as written, with .md added, and as a folder note. */
    private static List<String> forms(String path) {
        List<String> forms = new ArrayList<>(List.of(path + ".md", path));
        FOLDER_NOTES.forEach(f -> forms.add(path + "/" + f));
        forms.add(path + "/" + fileName(path) + ".md");
        return forms;
    }

    private static Optional<String> closest(List<String> candidates, String source) {
        if (candidates == null || candidates.isEmpty()) {
            return Optional.empty();
        }
        String folder = parentOf(source);
        return candidates.stream().min(Comparator.<String>comparingInt(p -> -commonFolders(parentOf(p), folder))
                .thenComparingInt(String::length).thenComparing(Comparator.naturalOrder()));
    }

    private static int commonFolders(String a, String b) {
        String[] x = a.split("/");
        String[] y = b.split("/");
        int n = 0;
        while (n < x.length && n < y.length && !x[n].isEmpty() && x[n].equals(y[n])) {
            n++;
        }
        return n;
    }

    /** Collapses {@code .} and {@code ..}; null when the path climbs above the vault root. */
    static String normalize(String path) {
        List<String> parts = new ArrayList<>();
        for (String part : path.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                if (parts.isEmpty()) {
                    return null;
                }
                parts.remove(parts.size() - 1);
            } else {
                parts.add(part);
            }
        }
        return String.join("/", parts);
    }

    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static void add(Map<String, List<String>> index, String key, String path) {
        index.computeIfAbsent(key, k -> new ArrayList<>()).add(path);
    }
}
