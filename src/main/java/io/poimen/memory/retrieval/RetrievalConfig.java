package io.poimen.memory.retrieval;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.retrieval.filter.NoteCatalog;
import io.poimen.memory.ops.Availability;
import io.poimen.memory.security.Access;
import io.poimen.memory.retrieval.select.HitCounts;
import io.poimen.memory.security.auth.CallerResolver;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Beans of the query route, its steps in the route's order first. */
@Configuration
public class RetrievalConfig {

    @Bean
    ParseStep parseQuery(ObjectMapper json, RetrievalPolicy policy) {
        return new ParseStep(json, policy, Clock.systemUTC());
    }

    @Bean
    ProjectCheckStep projectCheck(CallerResolver callers, Access access, GraphService graph) {
        return new ProjectCheckStep(callers, access, graph);
    }

    @Bean
    PlanStep planQuery(GraphService graph, SearchScopes scopes, Availability embedding, NoteCatalog catalog,
                       EmbeddingModelChoice model) {
        return new PlanStep(graph, scopes, embedding, catalog, model.scripts());
    }

    /** Read once per route load; a Camel event notifier (route added or removed), picked up as a bean of that type. */
    @Bean
    RouteBranches routeBranches() {
        return new RouteBranches();
    }

    @Bean
    FusionAggregationStrategy fusionAggregationStrategy(RetrievalMetrics metrics, RouteBranches routes,
                                                        EmbeddingModelChoice model, TfIdfIndex tfidf) {
        return new FusionAggregationStrategy(new QueryFusion(metrics, model.scripts(), tfidf), routes);
    }

    @Bean
    ResultAccessStep resultAccess(Access access) {
        return new ResultAccessStep(access);
    }

    @Bean
    SelectStep selectResults(ChunkRows rows) {
        return new SelectStep(rows);
    }

    @Bean
    AnswerStep answerQuery() {
        return new AnswerStep();
    }

    @Bean
    Availability embeddingAvailability(PoimenProperties props) {
        return new Availability(props.query().embeddingCoolDownMs().toMillis());
    }

    @Bean
    ChunkRows chunkRows(NoteStore notes, LexicalIndex lexical, PoimenProperties props) {
        return new ChunkRows(notes, lexical, new Availability(props.query().storeCoolDownMs().toMillis()));
    }

    @Bean
    BranchSearches branchSearches(TfIdfIndex tfidf, VectorIndex vectors, LexicalIndex lexical,
                                  Availability embedding, EmbeddingModelChoice model, HitCounts hits) {
        return new BranchSearches(tfidf, vectors, lexical, embedding, model.queryPrefix(), hits, Clock.systemUTC());
    }

    /** Query vectors of the last hour; the key names the model so a model change never serves old vectors. */
    @Bean
    QueryEmbeddingCache queryEmbeddingCache(EmbeddingModelChoice model, PoimenProperties props,
                                            io.micrometer.core.instrument.MeterRegistry registry) {
        PoimenProperties.EmbeddingCache cache = props.query().embeddingCache();
        return new QueryEmbeddingCache(model.id(), cache.maxSize(), cache.ttl(), registry);
    }

    @Bean
    BonusUnitAdvice bonusUnitAdvice(EmbeddingModelChoice model, RetrievalPolicy policy) {
        return new BonusUnitAdvice(model, policy);
    }

    @Bean
    SearchScopes searchScopes(GraphService graph) {
        return new SearchScopes(graph);
    }

    @Bean
    NoteCatalog noteCatalog(GraphService graph, NoteStore notes, PoimenProperties props) {
        return new NoteCatalog(graph, notes, props.query().changedField());
    }
}
