// Usage (docs/retrieval.md, "The coverage keep"):
//   java -cp "target/classes:$(scripts/test-classpath.sh)" scripts/fusion-offline/KeepOnNoise.java <model> <dump.json> <corpus.jsonl>
// Scores the shipped adaptive fusion with and without the gate's coverage keep on a dumped set, on its lexical-noise
// variant (BM25 and TF-IDF agree but miss: FusionReplay.withLexicalNoise, reference the semantic branch) and on its
// semantic-noise variant (a random dense list: FusionReplay.withNoiseSemantic, reference the lexical branch).
// Term shares as the hub's TfIdfIndex.termShares computes them, per document of the corpus (title + text, the
// vault's analyzer, IDF ln(N / df) over the documents) instead of per chunk.
import com.fasterxml.jackson.databind.*;
import io.poimen.bench.eval.FusionReplay;
import io.poimen.memory.retrieval.fusion.*;
import io.poimen.memory.vault.Terms;
import java.nio.file.*;
import java.util.*;
import java.util.function.ToDoubleFunction;

public class KeepOnNoise {
    public static void main(String[] a) throws Exception {
        ObjectMapper om = new ObjectMapper();
        Map<String, Set<String>> docTerms = new HashMap<>();
        Map<String, Integer> df = new HashMap<>();
        for (String line : Files.readAllLines(Path.of(a[2]))) {
            JsonNode j = om.readTree(line);
            String title = j.path("title").asText("");
            String note = title.isBlank() ? j.path("text").asText() : title + "\n\n" + j.path("text").asText();
            Set<String> terms = new HashSet<>(Terms.analyze(note));
            docTerms.put(j.get("_id").asText(), terms);
            terms.forEach(t -> df.merge(t, 1, Integer::sum));
        }
        int n = docTerms.size();
        CalibratedFusion.Unit unit = a[0].startsWith("all-minilm") ? CalibratedFusion.Unit.COSINE
                : CalibratedFusion.Unit.SPREAD;
        CalibratedFusion.Bonuses bonuses = CalibratedFusion.Bonuses.DEFAULTS.withUnit(unit);
        FusionSettings settings = FusionSettings.defaults().withMethod(AdaptiveFusion.NAME);
        FusionReplay.Dump dump = FusionReplay.load(Path.of(a[1]));
        for (FusionReplay.Dump d : List.of(dump, FusionReplay.withLexicalNoise(dump), FusionReplay.withNoiseSemantic(dump))) {
            double without = FusionReplay.ndcg10(d, new AdaptiveFusion(bonuses, AdaptiveFusion.Gate.DEFAULTS, true), settings);
            double with = FusionReplay.ndcg10(d, q -> new AdaptiveFusion(bonuses, AdaptiveFusion.Gate.DEFAULTS, true,
                    shares(q.text(), d.docByChunk(), docTerms, df, n)), settings);
            System.out.printf(Locale.ROOT, "%-28s semantic %.4f  lexical %.4f  adaptive %.4f  with keep %.4f  (%+.4f)%n",
                    d.name(), FusionReplay.ndcg10(d, "semantic"), FusionReplay.ndcg10(d, "lexical"), without, with,
                    with - without);
        }
    }

    static ToDoubleFunction<String> shares(String query, Map<String, String> docByChunk,
                                           Map<String, Set<String>> docTerms, Map<String, Integer> df, int n) {
        Map<String, Double> idf = new HashMap<>();
        for (String t : new LinkedHashSet<>(Terms.analyze(query))) {
            int d = df.getOrDefault(t, 0);
            idf.put(t, d == 0 ? 0 : Math.log((double) n / d));
        }
        double total = idf.values().stream().mapToDouble(Double::doubleValue).sum();
        return chunk -> {
            Set<String> terms = docTerms.getOrDefault(docByChunk.getOrDefault(chunk, chunk), Set.of());
            double held = 0;
            for (Map.Entry<String, Double> e : idf.entrySet()) {
                if (terms.contains(e.getKey())) {
                    held += e.getValue();
                }
            }
            return total <= 0 ? 0 : held / total;
        };
    }
}
