package io.poimen.memory.grc;

import io.poimen.memory.api.ApiException;
import java.lang.Character.UnicodeScript;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The folder and file names a draft may write: what git stores, and what a reviewer reads as it is. Refused, naming
 * the class of the character: a {@code .git} folder in any spelling git refuses ({@code .GIT}, {@code .git.},
 * {@code git~1}); control characters; bidirectional controls (U+202E makes {@code gnp.md} read as {@code dm.png});
 * invisible characters (zero-width spaces and joiners, other format characters, fillers that render as nothing);
 * spaces other than the plain and the ideographic one; and letters of scripts that look alike mixed in one name
 * ({@code pаypal} with a Cyrillic а). One script per name is fine, whatever it is ({@code 議事録.md},
 * {@code ملاحظات.md}), and so is Latin with one other script whose letters do not pass for Latin ones (Latin with
 * Japanese, Chinese or Korean, Arabic, Hebrew, Thai...): the mixed-script rule follows the "moderately restrictive"
 * level of Unicode's security mechanisms (UTS #39), with Armenian and Cherokee treated like Cyrillic and Greek.
 */
final class NoteNames {
    private static final Pattern GIT_DIR = Pattern.compile("(?i)\\.git[. ]*|git~1");
    private static final Set<Integer> BIDI_CONTROLS = Set.of(0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D,
            0x202E, 0x2066, 0x2067, 0x2068, 0x2069);
    /** Not format characters, but drawn as nothing: combining grapheme joiner, Hangul and Khmer fillers, blank. */
    private static final Set<Integer> BLANK_LETTERS = Set.of(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164,
            0xFFA0);
    /** Scripts whose letters pass for Latin ones: never mixed with another script in one name. */
    private static final Set<UnicodeScript> LOOK_ALIKE = EnumSet.of(UnicodeScript.CYRILLIC, UnicodeScript.GREEK,
            UnicodeScript.ARMENIAN, UnicodeScript.CHEROKEE);
    private static final Set<UnicodeScript> NEUTRAL = EnumSet.of(UnicodeScript.COMMON, UnicodeScript.INHERITED,
            UnicodeScript.UNKNOWN);
    private static final Set<Set<UnicodeScript>> CJK = Set.of(
            EnumSet.of(UnicodeScript.LATIN, UnicodeScript.HAN, UnicodeScript.HIRAGANA, UnicodeScript.KATAKANA),
            EnumSet.of(UnicodeScript.LATIN, UnicodeScript.HAN, UnicodeScript.BOPOMOFO),
            EnumSet.of(UnicodeScript.LATIN, UnicodeScript.HAN, UnicodeScript.HANGUL));

    private NoteNames() {
    }

    /** @throws ApiException 400 naming the segment's problem and its character class */
    static void check(String path) {
        for (String segment : path.split("/", -1)) {
            String problem = problem(segment);
            if (problem != null) {
                throw new ApiException(400, "bad_request", "document_path " + problem, "unsafe_name");
            }
        }
    }

    /** What is wrong with one folder or file name, or null (a note's {@code .md} is not part of its script). */
    static String problem(String segment) {
        if (GIT_DIR.matcher(segment).matches()) {
            return "must not have a '.git' folder in any spelling (" + segment + "): git refuses to store it";
        }
        for (int i = 0; i < segment.length(); ) {
            int c = segment.codePointAt(i);
            String kind = kind(c);
            if (kind != null) {
                return String.format(Locale.ROOT, "contains %s (U+%04X)", kind, c);
            }
            i += Character.charCount(c);
        }
        String name = segment.endsWith(".md") ? segment.substring(0, segment.length() - 3) : segment;
        Set<UnicodeScript> scripts = name.codePoints().mapToObj(UnicodeScript::of)
                .filter(s -> !NEUTRAL.contains(s))
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(UnicodeScript.class)));
        if (!mixable(scripts)) {
            return "mixes letters of scripts that look alike (" + scripts.stream().map(NoteNames::name)
                    .collect(Collectors.joining(" and ")) + ") in one name: a homoglyph can pass for another name";
        }
        return null;
    }

    private static String kind(int c) {
        if (BIDI_CONTROLS.contains(c)) {
            return "a bidirectional control character, which reorders how the name reads";
        }
        int type = Character.getType(c);
        if (type == Character.CONTROL) {
            return "a control character";
        }
        if (type == Character.FORMAT || BLANK_LETTERS.contains(c)) {
            return "an invisible (zero-width or format) character";
        }
        if (type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.SPACE_SEPARATOR && c != ' ' && c != 0x3000) {
            return "a space character other than the plain space, which passes for one";
        }
        return null;
    }

    private static boolean mixable(Set<UnicodeScript> scripts) {
        if (scripts.size() <= 1) {
            return true;
        }
        if (CJK.stream().anyMatch(set -> set.containsAll(scripts))) {
            return true;
        }
        return scripts.size() == 2 && scripts.contains(UnicodeScript.LATIN)
                && scripts.stream().noneMatch(LOOK_ALIKE::contains);
    }

    private static String name(UnicodeScript script) {
        String s = script.name().toLowerCase(Locale.ROOT);
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
