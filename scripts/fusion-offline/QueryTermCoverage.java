// Usage (docs/retrieval.md, "The model's scripts and query-term coverage"):
//   java -cp "$(scripts/test-classpath.sh)" scripts/fusion-offline/QueryTermCoverage.java <dump.json> <corpus.jsonl> <out.tsv>
// out.tsv: query id, distinct analysed query terms, then for BM25 and for the semantic branch: the share of
// those terms in the top document, and the mean share over the top 5 documents; then for BM25 and for the semantic
// branch the IDF-weighted share over the top 10 documents, averaged with the nDCG discount 1/log2(rank + 1) (IDF as
// BM25's, ln(1 + (N - df + 0.5) / (df + 0.5)), over the corpus's documents).
import com.fasterxml.jackson.databind.*;
import io.poimen.memory.vault.Terms;
import java.nio.file.*;
import java.util.*;

/** Query-term coverage of each judged query's top BM25 and semantic hits, with the vault's analyzer (Terms). */
public class QueryTermCoverage {
    public static void main(String[] a) throws Exception {
        ObjectMapper om = new ObjectMapper();
        Map<String, Set<String>> docTerms = new HashMap<>();
        Map<String, Integer> df = new HashMap<>();
        for (String line : Files.readAllLines(Path.of(a[1]))) {
            JsonNode j = om.readTree(line);
            String title = j.path("title").asText("");
            String note = title.isBlank() ? j.path("text").asText() : title + "\n\n" + j.path("text").asText();
            Set<String> terms = new HashSet<>(Terms.analyze(note));
            docTerms.put(j.get("_id").asText(), terms);
            terms.forEach(t -> df.merge(t, 1, Integer::sum));
        }
        int corpusSize = docTerms.size();
        JsonNode dump = om.readTree(Path.of(a[0]).toFile());
        JsonNode dbc = dump.get("doc_by_chunk");
        StringBuilder out = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> it = dump.get("queries").fields(); it.hasNext(); ) {
            var e = it.next();
            Set<String> qt = new LinkedHashSet<>(Terms.analyze(e.getValue().get("text").asText()));
            Map<String, Double> idf = new HashMap<>();
            for (String t : qt) {
                int d = df.getOrDefault(t, 0);
                idf.put(t, Math.log(1 + (corpusSize - d + 0.5) / (d + 0.5)));
            }
            double idfSum = idf.values().stream().mapToDouble(Double::doubleValue).sum();
            StringBuilder weighted = new StringBuilder();
            out.append(e.getKey()).append('\t').append(qt.size());
            for (String b : new String[] {"lexical", "semantic"}) {
                JsonNode hits = e.getValue().path("branches").path(b);
                List<String> docs = new ArrayList<>();
                if (hits.isArray()) for (JsonNode h : hits) {
                    String d = dbc.path(h.get(0).asText()).asText(h.get(0).asText());
                    if (!docs.contains(d)) docs.add(d);
                }
                double c1 = 0, c5 = 0; int n = 0;
                for (int i = 0; i < Math.min(5, docs.size()); i++) {
                    Set<String> dt = docTerms.getOrDefault(docs.get(i), Set.of());
                    double c = qt.isEmpty() ? 0 : qt.stream().filter(dt::contains).count() / (double) qt.size();
                    if (i == 0) c1 = c;
                    c5 += c; n++;
                }
                out.append('\t').append(c1).append('\t').append(n == 0 ? 0 : c5 / n);
                double num = 0, den = 0;
                for (int i = 0; i < Math.min(10, docs.size()); i++) {
                    Set<String> dt = docTerms.getOrDefault(docs.get(i), Set.of());
                    double held = idf.entrySet().stream().filter(t -> dt.contains(t.getKey()))
                            .mapToDouble(Map.Entry::getValue).sum();
                    double discount = 1 / (Math.log(i + 2) / Math.log(2));
                    num += discount * (idfSum > 0 ? held / idfSum : 0);
                    den += discount;
                }
                weighted.append('\t').append(den == 0 ? 0 : num / den);
            }
            out.append(weighted).append('\n');
        }
        Files.writeString(Path.of(a[2]), out);
    }
}
