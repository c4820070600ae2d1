package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

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
        if (link.target().isEmpty()) {
            return link.withResolution(source, LinkTypes.ofResolvedPath(source));
        }
        return firstStep(link.target(), source, p -> true).flatMap(c -> closest(c, source))
                .map(p -> link.withResolution(p, LinkTypes.ofResolution(link.target(), p)))
                .orElseGet(() -> link.withResolution(null, link.type()));
    }

    public List<WikiLink> resolveAll(Collection<WikiLink> links) {
        return links.stream().map(this::resolve).toList();
    }

    /**
     * What {@code [[target]]} written outside any folder could mean, among the files {@code eligible} accepts: the
     * candidates of the first rule of {@link #resolve}'s order that has an eligible one, sorted, without the
     * closest-to-the-source choice (a read by name has no source, so several candidates are an ambiguity to show).
     * A file {@code eligible} refuses is skipped as if it did not exist. Empty when nothing eligible matches.
     */
    public List<String> candidates(String target, Predicate<String> eligible) {
        if (target == null || target.isEmpty()) {
            return List.of();
        }
        return firstStep(target, "", eligible).map(c -> c.stream().sorted().toList()).orElse(List.of());
    }

    /** The eligible candidates of the first rule that has any, rules in the order of the class comment. */
    private Optional<List<String>> firstStep(String target, String source, Predicate<String> eligible) {
        Stream<List<String>> steps = Stream.empty();
        if (target.startsWith("./") || target.startsWith("../")) {
            steps = pathSteps(normalize(parentOf(source) + "/" + target));
            target = target.replaceFirst("^(\\.{1,2}/)+", "");
        }
        String t = target;
        Stream<List<String>> aliases = Stream.of(t).map(a -> byLowerAlias.get(lower(a)));
        return Stream.of(steps, pathSteps(normalize(t)), suffixSteps(t), nameSteps(t), aliases)
                .flatMap(s -> s)
                .filter(Objects::nonNull)
                .map(c -> c.stream().filter(eligible).toList())
                .filter(c -> !c.isEmpty())
                .findFirst();
    }

    /** An exact path (each form), then the same case-insensitively. */
    private Stream<List<String>> pathSteps(String path) {
        if (path == null || path.isEmpty()) {
            return Stream.empty();
        }
        return Stream.concat(forms(path).stream().map(f -> exact.containsKey(f) ? List.of(f) : null),
                forms(path).stream().map(f -> byLowerPath.get(lower(f))));
    }

    private Stream<List<String>> suffixSteps(String target) {
        String path = normalize(target);
        if (path == null || !path.contains("/")) {
            return Stream.empty();
        }
        return forms(path).stream().map(form -> {
            String suffix = "/" + lower(form);
            return byLowerName.getOrDefault(lower(fileName(form)), List.of()).stream()
                    .filter(p -> lower(p).endsWith(suffix)).toList();
        });
    }

    private Stream<List<String>> nameSteps(String target) {
        if (target.contains("/")) {
            return Stream.empty();
        }
        String name = lower(target);
        Stream<List<String>> folderNotes = Stream.of(name).map(n -> FOLDER_NOTES.stream()
                .flatMap(f -> byLowerName.getOrDefault(lower(f), List.of()).stream())
                .filter(p -> lower(fileName(parentOf(p))).equals(n)).toList());
        return Stream.concat(Stream.of(name + ".md", name).map(byLowerName::get), folderNotes);
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
