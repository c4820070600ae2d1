package io.poimen.memory.security.policy;

import io.poimen.memory.vault.WikiLinkParser;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Vault paths named inside free text (agent event text, commit messages, sync errors, draft messages).
 * {@link #withoutDenied} hides every one a caller may not read, so a text shown next to a readable note does not
 * name a denied one. A mention is a word (text between blanks and punctuation such as quotes, brackets, commas and
 * colons), read after undoing percent-encoding ({@code %2F}, also twice or three times), NFKC and slash look-alikes
 * (backslash, U+2044, U+2215, U+2571, U+27CB, U+29F8, U+FF0F all count as {@code /}), with a heading anchor
 * ({@code #...}) and leading {@code ./}, {@code ../} and {@code /} dropped, that names a note of the vault, compared
 * without regard to case:
 * <ul>
 *   <li>its path, or its path without {@code .md}, wherever the note sits ({@code README.md} in the root too);</li>
 *   <li>with a {@code /} in it, the end of a note's path ({@code secret/plan} of {@code ../secret/plan.md} names
 *       {@code projects/p/secret/plan.md}), as a wiki-link or a relative path resolves;</li>
 *   <li>without a {@code /}, a note's file name with or without {@code .md} when the word is a wiki-link target
 *       ({@code [[plan]]}, {@code [[plan|alias]]}, {@code [[plan#heading]]}), a relative path ({@code ./plan.md}) or
 *       ends in {@code .md} ({@code plan.md});</li>
 *   <li>or, when it names no note, it looks like a note path (now gone, or never there): it ends in {@code .md} or
 *       starts with {@code projects/} or {@code shared/} (any case), and is read as that path.</li>
 * </ul>
 * The word is hidden when the caller may not read any note it can name. Vault paths with blanks in them are found
 * as they are.
 */
public final class PathMentions {
    public static final String HIDDEN = "[path hidden]";
    private static final Pattern WORD = Pattern.compile("[^\\s\"'<>()\\[\\]{}`,;:|!?*=]+");
    /** Characters that read as a slash: backslash and Unicode look-alikes of {@code /}. */
    private static final String SLASHES = "\\\u2044\u2215\u2571\u27CB\u29F8\uFF0F";

    private PathMentions() {
    }

    /**
     * {@code text} with every path mentioned that {@code readable} refuses replaced by {@value #HIDDEN}.
     *
     * @param vaultPaths every note path of the vault (the link graph's notes)
     */
    public static String withoutDenied(String text, Set<String> vaultPaths, Predicate<String> readable) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = hideSpaced(text, vaultPaths, readable);
        Index index = index(vaultPaths);
        Matcher m = WORD.matcher(out);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String word = m.group();
            String trail = word.substring(stripDots(word));
            boolean wiki = m.start() >= 2 && out.startsWith("[[", m.start() - 2);
            List<String> named = named(word.substring(0, word.length() - trail.length()), index, wiki);
            m.appendReplacement(b, Matcher.quoteReplacement(named.stream().allMatch(readable) ? word
                    : HIDDEN + trail));
        }
        m.appendTail(b);
        return b.toString();
    }

    /**
     * A word written as a vault path is written: no percent-encoding, slash look-alike, compatibility form or leading
     * {@code ./} / {@code ../} (each of which {@link #named} reads as the note it stands for).
     */
    public static boolean plain(String word) {
        return normalized(word).equals(word) && !word.startsWith("./") && !word.startsWith("../");
    }

    /** The note paths (or path-like texts) {@code word}, taken as a whole, can name; empty when it names none. */
    public static List<String> named(String word, Set<String> vaultPaths) {
        return word.isEmpty() || !WORD.matcher(word).matches() ? List.of() : named(word, index(vaultPaths), false);
    }

    private static List<String> named(String word, Index index, boolean wiki) {
        String w = normalized(word);
        int anchor = w.indexOf('#');
        w = anchor >= 0 ? w.substring(0, anchor) : w;
        boolean relative = false;
        while (w.startsWith("./") || w.startsWith("../")) {
            w = w.substring(w.indexOf('/') + 1);
            relative = true;
        }
        w = w.replaceFirst("^/+", "");
        if (w.isEmpty()) {
            return List.of();
        }
        String lw = w.toLowerCase(Locale.ROOT);
        Set<String> out = new LinkedHashSet<>();
        for (String form : List.of(lw, lw + ".md")) {
            out.addAll(index.byPath.getOrDefault(form, List.of()));
            int slash = form.lastIndexOf('/');
            if (slash >= 0) {
                for (String p : index.byName.getOrDefault(form.substring(slash + 1), List.of())) {
                    if (p.toLowerCase(Locale.ROOT).endsWith("/" + form)) {
                        out.add(p);
                    }
                }
            } else if (wiki || relative || lw.endsWith(".md")) {
                out.addAll(index.byName.getOrDefault(form, List.of()));
            }
        }
        if (out.isEmpty() && (lw.endsWith(".md") || lw.startsWith("projects/") || lw.startsWith("shared/"))) {
            out.add(w);
            out.add(lw);
        }
        return List.copyOf(out);
    }

    /** The word with percent-encoding undone, NFKC-normalised, every slash look-alike a {@code /}. */
    private static String normalized(String word) {
        String w = word;
        for (int i = 0; i < 3 && w.indexOf('%') >= 0; i++) {
            w = WikiLinkParser.percentDecode(w);
        }
        w = Normalizer.normalize(w, Normalizer.Form.NFKC);
        StringBuilder b = new StringBuilder(w.length());
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            b.append(SLASHES.indexOf(c) >= 0 ? '/' : c);
        }
        return b.toString();
    }

    /** Where trailing dots (a sentence's end, an ellipsis) begin. */
    private static int stripDots(String word) {
        int end = word.length();
        while (end > 0 && word.charAt(end - 1) == '.') {
            end--;
        }
        return end;
    }

    /** The vault paths with blanks in them cannot be words: they are looked up in the text as they are. */
    private static String hideSpaced(String text, Set<String> vaultPaths, Predicate<String> readable) {
        if (text.indexOf(' ') < 0 && text.indexOf('\t') < 0) {
            return text;
        }
        String out = text;
        for (String p : index(vaultPaths).spaced) {
            String stem = p.endsWith(".md") ? p.substring(0, p.length() - ".md".length()) : p;
            if (out.contains(stem) && !readable.test(p)) {
                out = out.replace(p, HIDDEN).replace(stem, HIDDEN);
            }
        }
        return out;
    }

    /**
     * The vault's note paths by lower-case path and by lower-case file name, and those with blanks in them, for
     * one set of vault paths (one graph snapshot serves many texts).
     */
    private record Index(Set<String> of, Map<String, List<String>> byPath, Map<String, List<String>> byName,
                         List<String> spaced) {
    }

    private static volatile Index index = new Index(Set.of(), Map.of(), Map.of(), List.of());

    private static Index index(Set<String> vaultPaths) {
        Index i = index;
        if (i.of() != vaultPaths) {
            Map<String, List<String>> byPath = new HashMap<>();
            Map<String, List<String>> byName = new HashMap<>();
            List<String> spaced = new ArrayList<>();
            for (String p : vaultPaths) {
                String lower = p.toLowerCase(Locale.ROOT);
                byPath.computeIfAbsent(lower, k -> new ArrayList<>(1)).add(p);
                byName.computeIfAbsent(lower.substring(lower.lastIndexOf('/') + 1), k -> new ArrayList<>(1)).add(p);
                if (p.indexOf(' ') >= 0 || p.indexOf('\t') >= 0) {
                    spaced.add(p);
                }
            }
            i = new Index(vaultPaths, byPath, byName, List.copyOf(spaced));
            index = i;
        }
        return i;
    }
}
