package io.poimen.memory;

import dev.langchain4j.model.embedding.EmbeddingModel;
import io.poimen.memory.config.ClusterProperties;
import io.poimen.memory.cluster.IndexFollower;
import io.poimen.memory.cluster.Leadership;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.ChunkEmbedder;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.SessionEmbeddingModel;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.ingest.BulkReindex;
import io.poimen.memory.cluster.IndexBootstrap;
import io.poimen.memory.index.ingest.IngestPipeline;
import io.poimen.memory.index.ingest.IngestRoutes;
import io.poimen.memory.index.ingest.IngestWrites;
import io.poimen.memory.cluster.VectorModelCheck;
import io.poimen.memory.index.jdbc.JdbcNoteStore;
import io.poimen.memory.index.jdbc.PgVectorIndex;
import io.poimen.memory.index.lucene.LuceneLexicalIndex;
import io.poimen.memory.index.lucene.LuceneVectorIndex;
import io.poimen.memory.index.opensearch.OpenSearchLexicalIndex;
import io.poimen.memory.index.opensearch.OpenSearchRestClients;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.vault.NoteParser;
import io.poimen.memory.vault.VaultScanner;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import javax.sql.DataSource;
import org.apache.camel.ProducerTemplate;
import org.opensearch.client.RestClient;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.transport.rest_client.RestClientTransport;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Chooses the store adapters: Lucene on local disk (embedded default) or pgvector and OpenSearch. */
@Configuration
public class StoreConfig {

    /** The configured model; its size must be the vector store's (a mismatch stops the start, naming both). */
    @Bean
    EmbeddingModelChoice embeddingModelChoice(PoimenProperties props) {
        return EmbeddingModelChoice.forSetting(props.embedding().model(), props.vector().dimensions());
    }

    @Bean
    EmbeddingModel embeddingModel(EmbeddingModelChoice choice, PoimenProperties props) {
        return choice.load(props.embedding().textsAtOnce()); // warmed up: ONNX Runtime prepares its kernels
    }

    /**
     * The query route's model ({@code #queryEmbeddingModel} on its endpoint): the same weights, a text at a time
     * on the caller's thread. Not an autowire candidate, so ingest and everything else injected by type keep the
     * bean above.
     */
    @Bean(autowireCandidate = false)
    EmbeddingModel queryEmbeddingModel(EmbeddingModelChoice choice) {
        EmbeddingModel model = SessionEmbeddingModel.forQueries(choice);
        model.embed("warm-up");
        return model;
    }

    @Bean
    ChunkEmbedder chunkEmbedder(EmbeddingModel model, EmbeddingModelChoice choice, PoimenProperties props) {
        return new ChunkEmbedder(model, props.embedding().batchSize(), choice.passagePrefix());
    }

    @Bean
    NoteStore noteStore(DataSource dataSource, ClusterProperties cluster) {
        return new JdbcNoteStore(dataSource, cluster.nodeId());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "poimen.vector.backend", havingValue = "lucene", matchIfMissing = true)
    LuceneVectorIndex luceneVectorIndex(PoimenProperties props, EmbeddingModelChoice model) {
        return LuceneVectorIndex.open(props.data().dir().resolve("lucene/vectors"), props.vector().dimensions(),
                model.id());
    }

    @Bean
    @ConditionalOnProperty(name = "poimen.vector.backend", havingValue = "pgvector")
    PgVectorIndex pgVectorIndex(DataSource dataSource, PoimenProperties props, EmbeddingModelChoice model) {
        boolean prepared = dataSource instanceof HikariDataSource pool && pool.getConnectionInitSql() != null
                && pool.getConnectionInitSql().endsWith(PgVectorIndex.sessionSettings(PgVectorIndex.DEFAULT_EF_SEARCH));
        return new PgVectorIndex(dataSource, props.vector().dimensions(), PgVectorIndex.DEFAULT_EF_SEARCH, model.id(),
                prepared);
    }

    /**
     * With pgvector, every pooled connection gets the HNSW search settings once, when it is opened (after any init
     * SQL of the configuration), so that a search is one statement instead of a transaction with two SET LOCALs.
     */
    @Bean
    @ConditionalOnProperty(name = "poimen.vector.backend", havingValue = "pgvector")
    static BeanPostProcessor pgVectorSessionSettings() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String name) {
                if (bean instanceof HikariDataSource pool) {
                    String settings = PgVectorIndex.sessionSettings(PgVectorIndex.DEFAULT_EF_SEARCH);
                    String own = pool.getConnectionInitSql();
                    pool.setConnectionInitSql(own == null || own.isBlank() ? settings : own + "; " + settings);
                }
                return bean;
            }
        };
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "poimen.lexical.backend", havingValue = "lucene", matchIfMissing = true)
    LuceneLexicalIndex luceneLexicalIndex(PoimenProperties props) {
        return LuceneLexicalIndex.open(props.data().dir().resolve("lucene/lexical"), props.lexical().fuzzy(),
                props.lexical().fieldTieBreaker());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "poimen.lexical.backend", havingValue = "opensearch")
    RestClient openSearchRestClient(PoimenProperties props) {
        return OpenSearchRestClients.create(props.opensearch().url(), props.opensearch().username(),
                props.opensearch().password(), props.opensearch().caBundle());
    }

    @Bean
    @ConditionalOnProperty(name = "poimen.lexical.backend", havingValue = "opensearch")
    OpenSearchLexicalIndex openSearchLexicalIndex(RestClient restClient, PoimenProperties props,
                                                  MeterRegistry registry) {
        OpenSearchClient client = new OpenSearchClient(new RestClientTransport(restClient, new JacksonJsonpMapper()));
        // writes do not wait for a refresh: the ingest route makes a run's writes searchable once, before it returns
        OpenSearchLexicalIndex index = new OpenSearchLexicalIndex(client, new OpenSearchLexicalIndex.Options(
                props.opensearch().index(), props.opensearch().shards(), props.opensearch().replicas(), Refresh.False),
                props.lexical().fuzzy(), props.lexical().fieldTieBreaker(), registry);
        index.ensureIndex();
        return index;
    }

    @Bean
    IngestPipeline ingestPipeline(PoimenProperties props, VaultScanner scanner, NoteParser parser,
                                  ChunkEmbedder embedder, NoteStore notes, VectorIndex vectors, LexicalIndex lexical,
                                  TfIdfIndex tfidf, GraphService graph, RetrievalMetrics metrics) {
        return new IngestPipeline(props.vault(), scanner, parser, embedder, notes, vectors, lexical, tfidf, graph,
                metrics);
    }

    @Bean
    IngestWrites ingestWrites(VectorIndex vectors, LexicalIndex lexical, NoteStore notes, TfIdfIndex tfidf) {
        return new IngestWrites(vectors, lexical, notes, tfidf);
    }

    @Bean
    IngestRoutes ingestRoutes(IngestPipeline pipeline, IngestWrites writes) {
        return new IngestRoutes(pipeline, writes);
    }

    @Bean
    BulkReindex bulkReindex(VectorIndex vectors, LexicalIndex lexical, PoimenProperties props) {
        return new BulkReindex(vectors, lexical, props.vault().bulkThreshold());
    }

    @Bean
    VectorModelCheck vectorModelCheck(VectorIndex vectors, NoteStore notes, ChunkEmbedder embedder,
                                      Leadership leadership, PoimenProperties props) {
        return new VectorModelCheck(vectors, notes, embedder, leadership, props.vault().bulkThreshold());
    }

    @Bean
    IndexBootstrap indexBootstrap(NoteStore notes, TfIdfIndex tfidf, GraphService graph, ProducerTemplate producer,
                                  PoimenProperties props, IndexFollower follower, Leadership leadership) {
        return new IndexBootstrap(notes, tfidf, graph, producer, props.vault(), follower, leadership);
    }
}
