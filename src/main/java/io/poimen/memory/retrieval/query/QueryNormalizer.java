package io.poimen.memory.retrieval.query;

import io.poimen.memory.vault.Terms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a raw query into {@link NormalizedQuery}: pulls out {@code #tags} and {@code @mentions} (lower case),
 * entities ({@link QueryEntities}), raw word tokens and analysed terms ({@link Terms}).
 *
 * <p>Tags follow Obsidian: a {@code #} not preceded by a word character, followed by letters, digits, {@code _},
 * {@code -} or {@code /}, with at least one non-digit ({@code #123} is not a tag, {@code C#} is not a tag, a
 * markdown heading {@code # x} is not a tag). Mentions are {@code @name} not preceded by a word character, so
 * e-mail addresses are left in the text.
 */
public class QueryNormalizer {
    private static final Pattern TAG = Pattern.compile("(?<![\\p{L}\\p{N}_&/])#([\\p{L}\\p{N}_/-]*[\\p{L}_/-][\\p{L}\\p{N}_/-]*)");
    private static final Pattern MENTION = Pattern.compile("(?<![\\p{L}\\p{N}_.@])@([\\p{L}\\p{N}_][\\p{L}\\p{N}_.-]*)");
    /** A word: letters/digits, joined by {@code . _ ' -} inside (v1.2.3, kube-proxy, don't). */
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:[._'-][\\p{L}\\p{N}]+)*");

    public NormalizedQuery normalize(String query) {
        if (query == null) {
            throw new IllegalArgumentException("query must not be null");
        }
        String raw = query.replaceAll("\\p{Cntrl}", " ");
        List<String> tags = new ArrayList<>();
        List<String> mentions = new ArrayList<>();
        String text = extract(MENTION, extract(TAG, raw, tags), mentions);
        text = text.replaceAll("\\s+", " ").trim();

        List<String> tokens = new ArrayList<>();
        Matcher w = WORD.matcher(text);
        while (w.find()) {
            tokens.add(w.group());
        }
        return new NormalizedQuery(text, Terms.analyze(text), tokens, QueryEntities.extract(text), tags, mentions);
    }

    /** Removes every match of {@code p} from {@code s}, collecting group 1 lower-cased and de-duplicated. */
    private static String extract(Pattern p, String s, List<String> into) {
        Set<String> seen = new LinkedHashSet<>();
        Matcher m = p.matcher(s);
        StringBuilder rest = new StringBuilder();
        while (m.find()) {
            String value = m.group(1).replaceAll("[./-]+$", "").toLowerCase(Locale.ROOT);
            if (!value.isEmpty()) {
                seen.add(value);
            }
            m.appendReplacement(rest, " ");
        }
        m.appendTail(rest);
        into.addAll(seen);
        return rest.toString();
    }
}
