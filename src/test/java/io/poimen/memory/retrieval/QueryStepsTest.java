package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.jdbc.JdbcNoteStore;
import io.poimen.memory.index.lucene.LuceneLexicalIndex;
import io.poimen.memory.ops.Availability;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.filter.NoteCatalog;
import io.poimen.memory.retrieval.select.InMemorySessionContexts;
import io.poimen.memory.retrieval.session.ChunkHits;
import io.poimen.memory.retrieval.session.ProjectCacheStats;
import io.poimen.memory.retrieval.session.SessionContextStep;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.testsupport.TestH2;
import io.poimen.memory.vault.NoteParser;
import io.poimen.memory.vault.ParsedNote;
import io.poimen.memory.vault.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Each step of the query route called directly, on real parts (H2 note store, Lucene, the graph), no Spring: each
 * turns its value into the next one and records its own time; none changes the value it was given.
 */
class QueryStepsTest {
    static final String PODS = "projects/poimen/pods.md";
    static final String DNS = "projects/poimen/dns.md";
    static final String NODES = "projects/poimen/nodes.md";
    static final String OTHER = "projects/other/x.md";

    static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE); // as the hub's mapper
    static DataSource h2;
    static JdbcNoteStore notes;
    static GraphService graph;
    static ChunkRows rows;

    @BeforeAll
    static void vault() throws Exception {
        h2 = TestH2.migrated("query_steps");
        notes = new JdbcNoteStore(h2);
        notes.saveAll(List.of(parse(PODS, "# Pods\n\nWhy do pods crash: CrashLoopBackOff and OOMKilled.\n"),
                parse(DNS, "# DNS\n\nNXDOMAIN answers from CoreDNS when a pod resolves a name.\n"),
                parse(NODES, "# Nodes\n\nDraining a node before maintenance.\n"),
                parse(OTHER, "# Other\n\nPods of another project.\n")),
                Map.of(PODS, Instant.EPOCH, DNS, Instant.EPOCH, NODES, Instant.EPOCH, OTHER, Instant.EPOCH));
        graph = new GraphService();
        graph.replace(LinkGraph.of(List.of(PODS, DNS, NODES, OTHER), List.of()));
        rows = new ChunkRows(notes, new LuceneLexicalIndex(new ByteBuffersDirectory(), false), new Availability(1000));
    }

    static ParsedNote parse(String path, String text) throws Exception {
        return NoteParser.withDefaults().parse(path, text.getBytes(StandardCharsets.UTF_8));
    }

    private static Exchange exchange() {
        return new DefaultExchange(new DefaultCamelContext());
    }

    private static AllowedQuery allowed(AskedQuery asked) {
        return new ProjectCheckStep(e -> Caller.LOCAL_OPERATOR, null, graph).check(asked, exchange());
    }

    private static PlannedQuery planned(String body) {
        ParseStep parse = new ParseStep(JSON, new RetrievalPolicy(Path.of("policies")), Clock.systemUTC());
        return new PlanStep(graph, new SearchScopes(graph), new Availability(1000), new NoteCatalog(graph, notes, ""))
                .plan(allowed(parse.parse(body.getBytes(StandardCharsets.UTF_8))));
    }

    /**
     * The planned query fused from one branch that found the project's three notes, pods first (min-max normalised:
     * the last one scores 0 and leaves).
     */
    private static FusedQuery fused(PlannedQuery q) {
        BranchAnswers answers = BranchAnswers.NONE.with(BranchResult.ok(Branch.LEXICAL,
                List.of(new Hit(PODS + "#0", 3.0), new Hit(DNS + "#0", 2.0), new Hit(NODES + "#0", 1.0)), 1));
        return new QueryFusion(new RetrievalMetrics(new SimpleMeterRegistry())).fuse(q, answers,
                List.of(new RouteBranches.Wired(Branch.LEXICAL, 0)));
    }

    @Test
    void parseChecksTheBodyAndAppliesTheRequestsOverrides() {
        ParseStep parse = new ParseStep(JSON, new RetrievalPolicy(Path.of("policies")), Clock.systemUTC());
        AskedQuery q = parse.parse("{\"project\":\"poimen\",\"query\":\"pods\",\"top_k\":3,\"fusion\":\"rrf\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(q.request().project()).isEqualTo("poimen");
        assertThat(q.settings().topK()).isEqualTo(3);
        assertThat(q.settings().fusion().method()).isEqualTo("rrf");
        assertThat(q.filters().none()).isTrue();
        assertThat(q.trace().timingsMs()).containsOnlyKeys("parse");
        assertThatThrownBy(() -> parse.parse("{\"project\":\"poimen\",\"query\":\"x\",\"top_k\":0}"
                .getBytes(StandardCharsets.UTF_8))).isInstanceOf(ApiException.class)
                .extracting(e -> ((ApiException) e).status()).isEqualTo(422);
        assertThatThrownBy(() -> parse.parse(new byte[0])).isInstanceOf(ApiException.class);
    }

    @Test
    void theProjectCheckLetsTheLocalOperatorReadEverythingAndTimesItself() {
        AskedQuery asked = QueryValues.asked();
        Exchange exchange = exchange();
        AllowedQuery q = new ProjectCheckStep(e -> Caller.LOCAL_OPERATOR, null, graph).check(asked, exchange);
        assertThat(q.asked()).isSameAs(asked);
        assertThat(q.caller().checked()).isFalse();
        assertThat(q.caller().readable()).as("every note").isNull();
        assertThat(q.trace().timingsMs()).containsKey("access");
        assertThat(asked.trace().timingsMs()).doesNotContainKey("access");
    }

    @Test
    void planRoutesAndScopesToTheProjectsNotes() {
        PlannedQuery q = planned("{\"project\":\"poimen\",\"query\":\"why do pods crash\",\"search_method\":\"lexical\"}");
        assertThat(q.plan().runs(Branch.LEXICAL)).isTrue();
        assertThat(q.plan().runs(Branch.SEMANTIC)).isFalse();
        assertThat(q.scope().contains(PODS)).isTrue();
        assertThat(q.scope().contains(OTHER)).isFalse();
        assertThat(q.trace().timingsMs()).containsKeys("parse", "access", "plan");
        assertThatThrownBy(() -> planned("{\"project\":\"nope\",\"query\":\"pods\"}"))
                .isInstanceOf(ApiException.class).extracting(e -> ((ApiException) e).status()).isEqualTo(404);
    }

    /**
     * A question in a script the embedding model does not read is not embedded under the adaptive fusion, which
     * would give the dense list no weight; another fusion method, a model that reads the script and an explicit
     * semantic search still run the semantic branch.
     */
    @Test
    void aQuestionInAScriptTheModelDoesNotReadRunsNoSemanticBranchUnderTheAdaptiveFusion() {
        String japanese = "ポッドが再起動を繰り返す理由は何ですか";
        PlannedQuery unread = planned("{\"project\":\"poimen\",\"query\":\"" + japanese + "\"}");
        assertThat(unread.plan().strategy()).isEqualTo("hybrid");
        assertThat(unread.plan().branches()).containsExactlyInAnyOrder(Branch.TFIDF, Branch.LEXICAL);
        assertThat(unread.plan().reason()).endsWith("query script not read by the embedding model: semantic branch not run");
        assertThat(unread.trace().degraded()).isEmpty();
        assertThat(planned("{\"project\":\"poimen\",\"query\":\"why do pods crash so often\"}").plan()
                .branches()).contains(Branch.SEMANTIC);
        assertThat(planned("{\"project\":\"poimen\",\"query\":\"" + japanese + "\",\"fusion\":\"weighted\"}")
                .plan().branches()).contains(Branch.SEMANTIC);
        assertThat(planned("{\"project\":\"poimen\",\"query\":\"" + japanese + "\",\"search_method\":\"semantic\"}")
                .plan().branches()).containsExactly(Branch.SEMANTIC);
        PlanStep readsJapanese = new PlanStep(graph, new SearchScopes(graph), new Availability(1000),
                new NoteCatalog(graph, notes, ""), io.poimen.memory.index.ModelScripts.of(
                        List.of("latin", "katakana", "hiragana", "han")));
        ParseStep parse = new ParseStep(JSON, new RetrievalPolicy(Path.of("policies")), Clock.systemUTC());
        assertThat(readsJapanese.plan(allowed(parse.parse(("{\"project\":\"poimen\",\"query\":\"" + japanese + "\"}")
                .getBytes(StandardCharsets.UTF_8)))).plan().branches()).contains(Branch.SEMANTIC);
    }

    @Test
    void theResultAccessStepPassesTheLocalOperatorsCandidatesAndTimesItself() {
        FusedQuery fused = fused(planned("{\"project\":\"poimen\",\"query\":\"why do pods crash\"}"));
        FusedQuery readable = new ResultAccessStep(null).filter(fused, exchange());
        assertThat(readable.fused()).isEqualTo(fused.fused());
        assertThat(readable.trace().timingsMs()).containsKey("result_access");
        assertThat(fused.trace().timingsMs()).doesNotContainKey("result_access");
    }

    @Test
    void selectReadsTheRowsOfTheBestCandidatesAndAnswersInScoreOrder() {
        FusedQuery fused = fused(planned("{\"project\":\"poimen\",\"query\":\"why do pods crash\",\"top_k\":1}"));
        SelectedQuery q = new SelectStep(rows).select(fused);
        assertThat(q.response().results()).extracting(QueryResponse.Result::path).containsExactly(PODS);
        assertThat(q.response().context().chunks()).containsExactly(PODS + "#0");
        assertThat(q.selectable()).extracting(s -> s.chunkId()).containsExactly(PODS + "#0", DNS + "#0");
        assertThat(q.rows()).containsKeys(PODS + "#0", DNS + "#0");
        assertThat(q.trace().timingsMs()).containsKey("selection");
    }

    @Test
    void theSessionStepCarriesThePreviousContextFromTheValueAlone() {
        PlannedQuery planned = planned("{\"project\":\"poimen\",\"query\":\"why do pods crash\",\"top_k\":2,"
                + "\"session_id\":\"s1\"}");
        JdbcTemplate jdbc = new JdbcTemplate(h2);
        SessionContextStep step = new SessionContextStep(
                new InMemorySessionContexts(10, Duration.ofMinutes(5), 8192, Clock.systemUTC()), new TokenCounter(),
                new ProjectCacheStats(jdbc, new SimpleMeterRegistry()),
                new ChunkHits(jdbc, new SimpleMeterRegistry()), 0.75, 0, rows);
        SelectedQuery first = step.arrange(new SelectStep(rows).select(fused(planned)));
        assertThat(first.response().context().chunks()).containsExactlyInAnyOrder(PODS + "#0", DNS + "#0");

        // the next turn ranks nodes above dns: its plain selection drops dns, which is still a candidate
        FusedQuery next = new QueryFusion(new RetrievalMetrics(new SimpleMeterRegistry())).fuse(planned,
                BranchAnswers.NONE.with(BranchResult.ok(Branch.LEXICAL, List.of(new Hit(PODS + "#0", 3.0),
                        new Hit(NODES + "#0", 2.0), new Hit(DNS + "#0", 1.0), new Hit(OTHER + "#0", 0.5)), 1)),
                List.of(new RouteBranches.Wired(Branch.LEXICAL, 0)));
        SelectedQuery plain = new SelectStep(rows).select(next);
        assertThat(plain.response().context().chunks()).doesNotContain(DNS + "#0");
        SelectedQuery second = step.arrange(plain);
        assertThat(second.response().context().sessionId()).isEqualTo("s1");
        assertThat(second.response().context().chunks()).as("the previous context's chunks carried in front")
                .startsWith(first.response().context().chunks().get(0)).contains(DNS + "#0");
        assertThat(second.response().results()).extracting(QueryResponse.Result::docId).contains(DNS + "#0");
        assertThat(second.response().calls().candidates()).isEqualTo(4);
        assertThat(second.trace().timingsMs()).containsKey("session");
    }

    @Test
    void theAnswerHasEveryStepsTimeTheTotalAndWhatWasDegraded() {
        PlannedQuery planned = planned("{\"project\":\"poimen\",\"query\":\"why do pods crash\",\"explain\":false}");
        FusedQuery fused = fused(planned);
        SelectedQuery selected = new SelectStep(rows).select(fused.withFused(fused.fused(),
                fused.trace().degrade("semantic", "model offline")));
        QueryResponse answer = new AnswerStep().answer(selected);
        assertThat(answer.timingsMs()).containsKeys("parse", "access", "plan", "branches", "lexical", "fusion",
                "selection", "total");
        assertThat(answer.timingsMs().get("total")).isGreaterThanOrEqualTo(answer.timingsMs().get("selection"));
        assertThat(answer.degraded()).containsExactly("semantic");
        assertThat(answer.degradedReasons()).containsEntry("semantic", "model offline");
        assertThat(answer.results()).isNotEmpty().allSatisfy(r -> assertThat(r.breakdown()).isNull());
    }

}
