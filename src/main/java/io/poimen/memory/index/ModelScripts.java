package io.poimen.memory.index;

import java.lang.Character.UnicodeScript;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The writing systems an embedding model was trained to read, as its model card states them: a property of the
 * model, not a fitted number. A query written mostly in another script gets a dense list the model cannot rank
 * (MiniLM on Japanese or Arabic), so the adaptive fusion gives it no weight ({@code fusion.adaptive.model_scripts},
 * docs/retrieval.md). Empty: not declared, every script is read.
 */
public record ModelScripts(Set<UnicodeScript> scripts) {
    /** Not declared: the rule never fires. */
    public static final ModelScripts ANY = new ModelScripts(Set.of());
    /** The English-only models (MiniLM, BGE-small-en, E5-small-v2: their model cards say English). */
    public static final ModelScripts LATIN = new ModelScripts(Set.of(UnicodeScript.LATIN));

    public ModelScripts {
        scripts = scripts.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(scripts));
    }

    /**
     * Scripts by name as Java knows them ({@code latin}, {@code han}, {@code hiragana}, {@code arabic}, …, case
     * ignored) or by ISO 15924 code ({@code Latn}, {@code Hani}, …).
     *
     * @throws IllegalArgumentException naming the first unknown one
     */
    public static ModelScripts of(List<String> names) {
        List<UnicodeScript> out = new ArrayList<>();
        for (String n : names) {
            try {
                out.add(UnicodeScript.forName(n.trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown script '" + n + "': use a Unicode script name such as "
                        + "latin, han, hiragana, katakana, hangul, arabic, cyrillic, or an ISO 15924 code such as Latn");
            }
        }
        return new ModelScripts(Set.copyOf(out));
    }

    /**
     * Whether the model reads {@code text}: true when no scripts are declared, when the text has no letters, or when
     * at least half of its letters are in a declared script (an English word or two in a Japanese question does not
     * make it English, nor a Japanese name in an English one the reverse).
     */
    public boolean reads(String text) {
        if (scripts.isEmpty() || text == null) {
            return true;
        }
        int letters = 0;
        int read = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetter(cp)) {
                letters++;
                if (scripts.contains(UnicodeScript.of(cp))) {
                    read++;
                }
            }
        }
        return 2 * read >= letters;
    }

    @Override
    public String toString() {
        return scripts.isEmpty() ? "any" : scripts.stream().map(s -> s.name().toLowerCase(Locale.ROOT)).sorted()
                .collect(Collectors.joining(", "));
    }
}
