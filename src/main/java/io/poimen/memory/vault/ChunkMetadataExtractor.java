package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Chunk metadata for the TF-IDF metadata scope and the retrieval boosts: heading, first sentence, key terms
 * (analyzed with {@link Terms}, so they compare with analyzed queries) and a category from {@link #RULES}.
 */
@Component
public class ChunkMetadataExtractor {
    static final int MAX_SENTENCE_WORDS = 30;

    private static final Pattern ERROR = Pattern.compile(
            "\\b(\\w*(error|exception)s?|fail\\w*|crash\\w*|oom\\w*|\\w*backoff|panic\\w*|timed? ?out)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern SOLUTION = Pattern.compile(
            "\\b(how|fix\\w*|solv\\w*|solution\\w*|resolv\\w*|steps?|workarounds?|troubleshoot\\w*|recover\\w*)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern TOOL = Pattern.compile("\\b(kubectl|helm|k9s|kustomize|docker|podman|git|cargo|"
            + "rustup|npm|yarn|mvn|maven|gradle|terraform|ansible|psql|curl|jq|ssh|systemctl|journalctl|make|"
            + "flux|argocd|minikube|kind|k3s)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}_.:/-]*[\\p{L}\\p{N}]|[\\p{L}\\p{N}]");
    private static final Pattern IDENTIFIER = Pattern.compile("\\p{Ll}\\p{Lu}|\\p{Lu}{2}|\\p{N}|[_.:/-]");
    private static final Set<String> GENERIC = Set.of("how", "what", "when", "why", "which", "where", "who", "can",
            "do", "does", "use", "using", "see", "also", "about", "via", "you", "your", "we", "our", "i", "my", "has",
            "have", "been", "should", "would", "could", "may", "might", "must", "it's", "means", "mean", "its",
            "from", "so", "all", "any", "some", "more", "most", "other", "than", "too", "very", "just", "only");

    /** What a chunk is about: the first rule whose test matches wins; heading before first sentence. */
    record Rule(String category, Predicate<Section> test) {
    }

    /** The parts of a chunk the rules look at. */
    record Section(String heading, String firstSentence, String path, String text) {
    }

    static final List<Rule> RULES = List.of(
            new Rule(ChunkMetadata.ERROR, s -> ERROR.matcher(s.heading()).find()),
            new Rule(ChunkMetadata.SOLUTION, s -> SOLUTION.matcher(s.heading()).find()),
            new Rule(ChunkMetadata.TOOL, s -> TOOL.matcher(s.heading()).find()),
            new Rule(ChunkMetadata.ERROR, s -> ERROR.matcher(s.firstSentence()).find()),
            new Rule(ChunkMetadata.SOLUTION, s -> SOLUTION.matcher(s.firstSentence()).find()),
            new Rule(ChunkMetadata.TOOL, s -> TOOL.matcher(s.firstSentence()).find()),
            new Rule(ChunkMetadata.TOOL, s -> s.path().startsWith("tools/") || s.path().contains("/tools/")),
            new Rule(ChunkMetadata.TOOL, s -> codeHeavy(s.text())),
            new Rule(ChunkMetadata.CONCEPT, s -> true));

    /**
     * @param heading heading text (no #), or the note title for a preamble
     * @param text    chunk markdown (may start with its heading line); read without its links' references
     * @param path    vault path of the note
     */
    public ChunkMetadata extract(String heading, String text, String path) {
        String h = heading == null ? "" : heading;
        String own = LinkText.of(text).own();
        String sentence = FirstSentence.of(own, MAX_SENTENCE_WORDS);
        Section section = new Section(h, sentence, path == null ? "" : path, own);
        String category = RULES.stream().filter(r -> r.test().test(section)).findFirst()
                .map(Rule::category).orElse(ChunkMetadata.CONCEPT);
        return new ChunkMetadata(h, sentence, keyTerms(h, sentence), category);
    }

    /**
     * Every content word of the heading, plus the identifier-like words of the first sentence (mixed case such
     * as CrashLoopBackOff, upper case such as OOM, digits such as ports, separators such as kube-proxy) and tool
     * names; generic and stop words dropped; each word stored in its {@link Terms} form.
     */
    static List<String> keyTerms(String heading, String sentence) {
        Set<String> terms = new LinkedHashSet<>();
        words(heading).forEach(w -> addTerms(terms, w));
        words(sentence).stream().filter(w -> IDENTIFIER.matcher(w).find() || TOOL.matcher(w).matches())
                .forEach(w -> addTerms(terms, w));
        return List.copyOf(terms);
    }

    private static void addTerms(Set<String> terms, String word) {
        if (!GENERIC.contains(word.toLowerCase())) {
            Terms.analyze(word).stream().filter(t -> !GENERIC.contains(t)).forEach(terms::add);
        }
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** At least half of the non-blank lines are fenced code. */
    static boolean codeHeavy(String text) {
        String[] lines = text.split("\n");
        boolean[] fenced = MarkdownMask.fencedLines(lines);
        int nonBlank = 0;
        int code = 0;
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].isBlank() && Headings.parse(lines[i]) == null) {
                nonBlank++;
                code += fenced[i] ? 1 : 0;
            }
        }
        return nonBlank > 0 && code * 2 >= nonBlank;
    }
}
