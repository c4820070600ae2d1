// Usage (docs/retrieval.md, "The model's scripts and query-term coverage"):
//   java -cp "$(scripts/test-classpath.sh)" scripts/fusion-offline/QueryTermCoverage.java <dump.json> <corpus.jsonl> <out.tsv>
// out.tsv: query id, distinct analysed query terms, then for BM25 and for the semantic branch: the share of
// those terms in the top document, and the mean share over the top 5 documents.
import com.fasterxml.jackson.databind.*;
import io.poimen.memory.vault.Terms;
import java.nio.file.*;
import java.util.*;

/** Query-term coverage of each judged query's top BM25 and semantic hits, with the vault's analyzer (Terms). */
public class QueryTermCoverage {
    public static void main(String[] a) throws Exception {
        ObjectMapper om = new ObjectMapper();
        Map<String, Set<String>> docTerms = new HashMap<>();
        for (String line : Files.readAllLines(Path.of(a[1]))) {
            JsonNode j = om.readTree(line);
            String title = j.path("title").asText("");
            String note = title.isBlank() ? j.path("text").asText() : title + "\n\n" + j.path("text").asText();
            docTerms.put(j.get("_id").asText(), new HashSet<>(Terms.analyze(note)));
        }
        JsonNode dump = om.readTree(Path.of(a[0]).toFile());
        JsonNode dbc = dump.get("doc_by_chunk");
        StringBuilder out = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> it = dump.get("queries").fields(); it.hasNext(); ) {
            var e = it.next();
            Set<String> qt = new LinkedHashSet<>(Terms.analyze(e.getValue().get("text").asText()));
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
            }
            out.append('\n');
        }
        Files.writeString(Path.of(a[2]), out);
    }
}
