package io.poimen.memory.index;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * How the ingest model's threading spends the cores (docs/operations.md, "Ingest: one ONNX thread per text"):
 * chunks/s of the default model embedding {@code TEXTS} msmarco-5k passages in batches of 32, as langchain4j's own
 * class runs it (a text per core at once, ONNX Runtime's thread per core for each) and as the hub's ingest session
 * with 1 to cores + 1 texts at once (one ONNX thread each); each alone, then beside one busy thread that stands for
 * the rest of an ingest (parse, writes, the stores), whose work per second is printed too (alone: last line).
 *
 * <pre>java -cp "$(scripts/test-classpath.sh)" io.poimen.memory.index.EmbeddingThreadsBench [TEXTS (1500)]</pre>
 */
public final class EmbeddingThreadsBench {
    private static final int BATCH = 32;

    private EmbeddingThreadsBench() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1500;
        List<TextSegment> texts = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(Path.of("/work/shared/bench/msmarco-5k/corpus.jsonl"))) {
            var doc = json.readTree(line);
            texts.add(TextSegment.from("Doc " + doc.get("_id").asText() + "\n" + doc.get("text").asText()));
            if (texts.size() == count) {
                break;
            }
        }
        Map<String, Supplier<EmbeddingModel>> variants = new LinkedHashMap<>();
        variants.put("langchain4j's class", AllMiniLmL6V2QuantizedEmbeddingModel::new);
        int cores = Runtime.getRuntime().availableProcessors();
        for (int n = 1; n <= cores + 1; n++) {
            int at = n;
            variants.put("hub session, " + n + " at once",
                    () -> SessionEmbeddingModel.forIngest(EmbeddingModelChoice.defaultChoice(), at));
        }
        for (int round = 1; round <= 2; round++) {
            for (var variant : variants.entrySet()) {
                EmbeddingModel model = variant.getValue().get();
                model.embedAll(texts.subList(0, Math.min(200, texts.size())));
                double alone = rate(model, texts, null);
                AtomicLong work = new AtomicLong();
                long start = System.nanoTime();
                double beside = rate(model, texts, work);
                double workRate = work.get() / ((System.nanoTime() - start) / 1e9);
                System.out.printf("round %d  %-24s alone %6.1f chunks/s   beside a busy thread %6.1f chunks/s,"
                        + " its work %6.1f/s%n", round, variant.getKey(), alone, beside, workRate);
            }
        }
        AtomicLong work = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Thread busy = busy(work, stop);
        long start = System.nanoTime();
        Thread.sleep(5000);
        stop.set(true);
        busy.join();
        System.out.printf("the busy thread alone: its work %6.1f/s%n", work.get() / ((System.nanoTime() - start) / 1e9));
    }

    /** Chunks per second over all texts in batches of {@link #BATCH}, beside a busy thread when {@code work} is set. */
    private static double rate(EmbeddingModel model, List<TextSegment> texts, AtomicLong work) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread busy = work == null ? null : busy(work, stop);
        long start = System.nanoTime();
        for (int from = 0; from < texts.size(); from += BATCH) {
            model.embedAll(texts.subList(from, Math.min(texts.size(), from + BATCH)));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        stop.set(true);
        if (busy != null) {
            busy.join();
        }
        return texts.size() / seconds;
    }

    private static Thread busy(AtomicLong work, AtomicBoolean stop) {
        Thread thread = new Thread(() -> {
            double x = 0;
            while (!stop.get()) {
                for (int i = 0; i < 100_000; i++) {
                    x += Math.sqrt(i + x % 7);
                }
                work.incrementAndGet();
            }
            if (x == -1) {
                System.out.println(x); // keeps the loop from being optimised away
            }
        }, "busy");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
