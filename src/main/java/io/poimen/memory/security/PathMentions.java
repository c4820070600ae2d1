package io.poimen.memory.security;

import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Vault paths named inside free text (agent event text, commit messages): {@code projects/...} and
 * {@code shared/...} words. {@link #withoutDenied} hides the ones a caller may not read, so a text shown next to a
 * readable note does not name a denied one.
 */
public final class PathMentions {
    public static final String HIDDEN = "[path hidden]";
    private static final Pattern MENTION =
            Pattern.compile("(?<![\\w/.-])(?:projects|shared)/[^\\s\"'<>()\\[\\]{}`,;]+");

    private PathMentions() {
    }

    /** {@code text} with every mentioned path that {@code readable} refuses replaced by {@value #HIDDEN}. */
    public static String withoutDenied(String text, Predicate<String> readable) {
        if (text == null || text.indexOf('/') < 0) {
            return text;
        }
        Matcher m = MENTION.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(readable.test(m.group()) ? m.group() : HIDDEN));
        }
        m.appendTail(out);
        return out.toString();
    }
}
