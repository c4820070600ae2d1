package io.poimen.memory.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.retrieval.BranchSearches;
import io.poimen.memory.retrieval.EmbeddingAvailability;
import io.poimen.memory.retrieval.FusionAggregationStrategy;
import io.poimen.memory.retrieval.QueryFusion;
import io.poimen.memory.retrieval.QueryPipeline;
import io.poimen.memory.retrieval.RetrievalPolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Beans of the query route. */
@Configuration
public class RetrievalConfig {

    @Bean
    EmbeddingAvailability embeddingAvailability() {
        return new EmbeddingAvailability(30_000);
    }

    @Bean
    BranchSearches branchSearches(TfIdfIndex tfidf, VectorIndex vectors, LexicalIndex lexical,
                                  EmbeddingAvailability embedding, NoteStore notes) {
        return new BranchSearches(tfidf, vectors, lexical, embedding, notes);
    }

    @Bean
    FusionAggregationStrategy fusionAggregationStrategy(RetrievalMetrics metrics) {
        return new FusionAggregationStrategy(new QueryFusion(metrics));
    }

    @Bean
    QueryPipeline queryPipeline(ObjectMapper json, RetrievalPolicy policy, GraphService graph, NoteStore notes,
                                EmbeddingAvailability embedding) {
        return new QueryPipeline(json, policy, graph, notes, embedding);
    }
}
