package io.poimen.bench;

import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.bench.eval.AgentSession;
import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.SessionBenchmark;
import io.poimen.memory.retrieval.session.ProjectCacheStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code bench session}: scripted agent sessions in plain score order, the hub's default path order and the
 * session-stable order; prefix reuse, nDCG@10 of each turn's context, tokens sent and call reduction, and the
 * project's cache figures (meters and {@code project_index_metadata}) before and after.
 */
@Command(name = "session", description = "Agent sessions of follow-up questions: prompt-prefix reuse and quality.")
public class BenchSessionCommand implements Callable<Integer> {
    @Option(names = "--dataset", description = "BEIR folder; its queries are grouped into sessions by their words")
    Path dataset;

    @Option(names = "--vault", description = "vault folder (with --sessions)")
    Path vault;

    @Option(names = "--sessions", description = "scripted sessions JSON for --vault (default: ${DEFAULT-VALUE})",
            defaultValue = "examples/bench-sessions.json")
    Path sessions;

    @Option(names = "--follow-ups", defaultValue = "reformulated", description = "BEIR sessions: reformulated (one "
            + "query and its reformulations per session) or grouped (different queries grouped by their words)")
    String followUps;

    @Option(names = "--session-size", defaultValue = "10", description = "questions per BEIR session")
    int sessionSize;

    @Option(names = "--policy", defaultValue = "policies/retrieval.yaml", description = "retrieval policy to use")
    Path policy;

    @Unmatched
    List<String> springArgs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if ((dataset == null) == (vault == null)) {
            System.err.println("error: give either --dataset DIR (BEIR) or --vault DIR [--sessions FILE]");
            return 2;
        }
        if (!followUps.equals("reformulated") && !followUps.equals("grouped")) {
            System.err.println("error: --follow-ups must be reformulated or grouped, got " + followUps);
            return 2;
        }
        try (BenchContext bench = dataset != null ? beir() : BenchContext.openVault(vault, policy, springArgs)) {
            List<AgentSession> script = dataset == null ? AgentSession.load(sessions)
                    : followUps.equals("grouped") ? AgentSession.group(bench.set, sessionSize)
                    : AgentSession.reformulate(bench.set, sessionSize);
            if (script.isEmpty()) {
                System.err.println("error: no sessions");
                return 2;
            }
            System.out.printf("%s: %d sessions, %d turns; ingest %d chunks in %.1f s%n",
                    dataset != null ? bench.set.name() : vault, script.size(),
                    script.stream().mapToInt(s -> s.turns().size()).sum(), bench.ingest.chunks(),
                    bench.ingest.seconds());
            script.forEach(s -> System.out.printf("  %s (%s): %s …%n", s.name(), s.project(),
                    s.turns().get(0).question()));
            List<String> projects = script.stream().map(AgentSession::project).distinct().toList();
            printCache("before", bench, projects);
            Map<String, SessionBenchmark.OrderResult> results = new SessionBenchmark(bench.producer)
                    .run(script, bench.idByPath);
            System.out.printf("%-8s %14s %12s %8s %8s %12s %13s %14s%n", "order", "follow-up reuse",
                    "token reuse", "nDCG@10", "judged", "tokens sent", "tokens reused", "call reduction");
            results.forEach((order, r) -> System.out.printf("%-8s %14.1f%% %11.1f%% %8.4f %8d %12d %13d %13.1f%%%n",
                    order, 100 * r.followUpReuse(), 100 * r.tokenReuse(), r.ndcg10(), r.judgedTurns(),
                    r.tokensSent(), r.tokensReused(), 100 * r.callReduction()));
            SessionBenchmark.OrderResult plain = results.get("score");
            SessionBenchmark.OrderResult stable = results.get("session");
            System.out.printf("session vs score order: follow-up reuse %.1f%% (goal ≥ 70%%), nDCG@10 %+.4f "
                            + "(goal ≥ −0.01); hub's prefix_reuse differed from the recomputed one in %d turns%n",
                    100 * stable.followUpReuse(), stable.ndcg10() - plain.ndcg10(), stable.serverMismatch());
            printCache("after", bench, projects);
            return 0;
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
    }

    private BenchContext beir() throws java.io.IOException {
        if (!Files.isRegularFile(dataset.resolve("corpus.jsonl"))) {
            throw new IllegalArgumentException("no corpus.jsonl in " + dataset);
        }
        BenchContext.Options options = new BenchContext.Options();
        options.dataset = dataset;
        options.policy = policy;
        options.springArgs = springArgs;
        return BenchContext.open(options);
    }

    private static void printCache(String when, BenchContext bench, List<String> projects) {
        MeterRegistry meters = bench.spring.getBean(MeterRegistry.class);
        Map<String, ProjectCacheStats.Totals> totals = bench.spring.getBean(ProjectCacheStats.class).totals();
        for (String p : projects) {
            double served = meter(meters, "poimen.context.tokens.served", p);
            double reused = meter(meters, "poimen.context.tokens.reused", p);
            var gauge = meters.find("poimen.context.cache.hit.ratio").tag("project", p).gauge();
            ProjectCacheStats.Totals row = totals.get(p);
            System.out.printf("cache %s, project %s: meters tokens_served %.0f, tokens_reused %.0f, hit_ratio %s; "
                            + "project_index_metadata %s%n", when, p, served, reused,
                    gauge == null ? "-" : String.format("%.4f", gauge.value()),
                    row == null ? "no row" : String.format("chunks %d, tokens %d, reused %d, hit ratio %.4f",
                            row.chunksServed(), row.tokensServed(), row.tokensReused(),
                            row.hitRatio() == null ? 0 : row.hitRatio()));
        }
    }

    private static double meter(MeterRegistry meters, String name, String project) {
        var c = meters.find(name).tag("project", project).functionCounter();
        return c == null ? 0 : c.count();
    }
}
