package io.poimen.memory.grc;

import io.poimen.memory.security.policy.Caller;
import java.text.Normalizer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Branch names of drafts: {@code edit/<user>/<slug>-<yyyyMMddHHmmss>-<draft id prefix>} (UTC), valid git ref
 * names. The draft id part keeps two drafts of same-named notes made in the same second on their own branches.
 */
public final class BranchNames {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss")
            .withZone(ZoneOffset.UTC);
    private static final int MAX_PART = 40;
    /** Every draft branch's name starts with this. */
    static final String PREFIX = "edit/";

    private BranchNames() {
    }

    public static String of(Caller caller, String documentPath, Instant at) {
        return PREFIX + user(caller) + "/" + slug(documentPath) + "-" + STAMP.format(at);
    }

    public static String of(Caller caller, String documentPath, Instant at, String draftId) {
        String unique = clean(draftId).replace("-", "");
        return of(caller, documentPath, at) + "-" + unique.substring(0, Math.min(8, unique.length()));
    }

    /** The user part: the e-mail's local part, else the name, else the subject. */
    static String user(Caller caller) {
        String source = caller.email() != null && caller.email().contains("@")
                ? caller.email().substring(0, caller.email().indexOf('@'))
                : caller.name() != null && !caller.name().isBlank() ? caller.name() : caller.subject();
        String user = clean(source);
        return user.isEmpty() ? "user" : user;
    }

    /** The slug: the note's file name without {@code .md}. */
    static String slug(String documentPath) {
        String name = documentPath.substring(documentPath.lastIndexOf('/') + 1);
        if (name.endsWith(".md")) {
            name = name.substring(0, name.length() - 3);
        }
        String slug = clean(name);
        return slug.isEmpty() ? "note" : slug;
    }

    /** Lower-case ASCII letters, digits and single dashes; what git and Forgejo URLs accept without escaping. */
    static String clean(String s) {
        String ascii = Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
        String cleaned = ascii.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (cleaned.length() > MAX_PART) {
            cleaned = cleaned.substring(0, MAX_PART).replaceAll("-+$", "");
        }
        return cleaned;
    }
}
