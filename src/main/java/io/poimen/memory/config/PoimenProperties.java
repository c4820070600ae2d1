package io.poimen.memory.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings under {@code poimen.*}, one tree; the sections of single modules are records of their own
 * ({@link ClusterProperties}, {@link GitProperties}, ...), offered as beans by {@link PropertiesConfig}. Every
 * default is a {@code @DefaultValue} of these records: the build writes them into the configuration metadata, and {@link TreeDefaults} offers them to
 * {@code ${...}} and route {@code {{...}}} placeholders, so neither repeats them. Times are {@link Duration}s:
 * {@code 250ms}, {@code 2s}, {@code 30m}, ISO-8601 {@code PT30M}, or a bare number of milliseconds.
 *
 * @param vault     the vault and its ingest
 * @param data      local state
 * @param vector    vector store
 * @param lexical   BM25 store
 * @param opensearch OpenSearch connection and index (lexical backend opensearch)
 * @param embedding embedding model
 * @param query     query route
 * @param session   session-stable contexts
 * @param agents    agent event stream
 * @param mcp       MCP sessions
 * @param audit     access decision audit
 * @param retrieval in-process retrieval engines
 * @param policies  policy files
 * @param routesDir folder of the routes/*.camel.yaml files, read at start and watched for changes
 * @param cluster   writer election and the followers
 * @param git       the vault's git remote
 * @param forgejo   the Forgejo API of the vault's pull requests
 * @param webhook   Forgejo's webhook
 * @param security  authentication of callers
 * @param ui        the web UI
 * @param limits    requests per minute per caller and surface
 * @param retention how long the tables that grow with use keep their rows
 * @param http      request limits of the HTTP API
 */
@Validated
@ConfigurationProperties("poimen")
public record PoimenProperties(@DefaultValue @Valid Vault vault, @DefaultValue Data data,
                               @DefaultValue Vector vector, @DefaultValue Lexical lexical,
                               @DefaultValue @Valid OpenSearch opensearch, @DefaultValue @Valid Embedding embedding,
                               @DefaultValue @Valid Query query, @DefaultValue @Valid Session session,
                               @DefaultValue @Valid Agents agents, @DefaultValue Mcp mcp, @DefaultValue Audit audit,
                               @DefaultValue Retrieval retrieval, @DefaultValue Policies policies,
                               @DefaultValue("routes") Path routesDir,
                               @DefaultValue @NestedConfigurationProperty ClusterProperties cluster,
                               @DefaultValue @NestedConfigurationProperty GitProperties git,
                               @DefaultValue @NestedConfigurationProperty ForgejoProperties forgejo,
                               @DefaultValue @NestedConfigurationProperty WebhookProperties webhook,
                               @DefaultValue @NestedConfigurationProperty SecuritySettings security,
                               @DefaultValue @NestedConfigurationProperty UiSettings ui,
                               @DefaultValue @NestedConfigurationProperty LimitsProperties limits,
                               @DefaultValue @NestedConfigurationProperty RetentionProperties retention,
                               @DefaultValue @NestedConfigurationProperty HttpProperties http) {

    /**
     * @param path             vault folder: a git working copy (a clone of {@code poimen.git.remote} when git sync is
     *                         on; otherwise made one at start if it is not, and seeded from {@code seed} when missing
     *                         or empty)
     * @param seed             folder copied into a missing or empty vault folder at start ({@code none}: start empty)
     * @param ingestOnStartup  ingest the vault (incrementally) when the hub starts
     * @param maxFileBytes     larger files are skipped and reported; their previous version stays indexed
     * @param filesPerBatch    notes parsed, embedded and committed together (larger: fewer index commits, more memory)
     * @param maxChunksPerNote chunks indexed of one note at most; the rest is reported, not embedded
     * @param bulkThreshold    a run changing at least this many notes loads pgvector without its HNSW index and
     *                         builds it once at the end (0: never)
     * @param maxAttachmentBytes larger attachments (images, PDFs) are not served: 413 to a caller who may read them
     */
    // files-per-batch: each batch ends in an index commit; measured on 5,000 notes: 100 per batch 55-61 % of the
    // embedding-only rate, 1,000 per batch 73 %, 5,000 77 % (bench ingest)
    public record Vault(@DefaultValue("data/vault") Path path, @DefaultValue("examples/vault") String seed,
                        @DefaultValue("true") boolean ingestOnStartup,
                        @DefaultValue("5242880") @Min(1) long maxFileBytes, @DefaultValue("1000") @Min(1) int filesPerBatch,
                        @DefaultValue("500") @Min(1) int maxChunksPerNote, @DefaultValue("5000") @Min(0) int bulkThreshold,
                        @DefaultValue("20971520") @Min(1) long maxAttachmentBytes) {
    }

    /** @param dir local state of the embedded mode (H2 file, Lucene indexes, audit spool) */
    public record Data(@DefaultValue("./data") Path dir) {
    }

    /**
     * @param backend    lucene (embedded) or pgvector
     * @param dimensions embedding size of the vector store
     */
    public record Vector(@DefaultValue("lucene") String backend, @DefaultValue("384") int dimensions) {
    }

    /**
     * @param backend lucene (embedded) or opensearch
     * @param fuzzy   the BM25 branch (Lucene or OpenSearch) also matches a query term no indexed text holds one or
     *                two edits away (the typo case)
     * @param fieldTieBreaker how much the chunk's other fields add to its best field's score, 0..1: 0 (default) the
     *                best field alone (a dis-max), 1 their sum; above 0 a chunk holding some query words in its
     *                heading or breadcrumb and others in its text gathers both (docs/retrieval.md, "Field tie-breaker")
     */
    public record Lexical(@DefaultValue("lucene") String backend, @DefaultValue("true") boolean fuzzy,
                          @DefaultValue("0") double fieldTieBreaker) {
        public Lexical {
            if (!(fieldTieBreaker >= 0 && fieldTieBreaker <= 1)) {
                throw new IllegalArgumentException("poimen.lexical.field-tie-breaker must be in [0, 1], got "
                        + fieldTieBreaker);
            }
        }
    }

    /**
     * @param url      OpenSearch endpoint; a comma-separated list names several nodes
     * @param index    index name
     * @param username basic auth user (none: no auth)
     * @param password basic auth password
     * @param shards   shards of a newly created index
     * @param replicas replicas of a newly created index
     * @param caBundle PEM bundle of the CA that signed the nodes' certificates, for an https URL
     */
    public record OpenSearch(@DefaultValue("http://127.0.0.1:9200") String url,
                             @DefaultValue("vault-chunks") String index, String username, String password,
                             @DefaultValue("1") @Min(1) int shards, @DefaultValue("0") @Min(0) int replicas,
                             Path caBundle) {
    }

    /**
     * @param batchSize chunks per embedding call
     * @param model     in-process embedding model: a built-in id (all-minilm-l6-v2-q, bge-small-en-v1.5-q,
     *                  e5-small-v2-q; none: the built-in default model) or a folder holding an ONNX model, its
     *                  tokenizer.json and poimen-model.yaml; a change re-embeds the vector store
     * @param threads   texts of a batch the ingest embeds at once, each on one ONNX thread (none: one per core)
     */
    public record Embedding(@DefaultValue("32") @Min(1) int batchSize, String model, @Min(1) Integer threads) {

        public int textsAtOnce() {
            return threads != null ? threads : Runtime.getRuntime().availableProcessors();
        }
    }

    /**
     * @param branchTimeoutMs         per-branch timeout of the query multicast
     * @param embeddingCoolDownMs     after the semantic branch fails, queries skip it this long
     * @param storeCoolDownMs         after the note store fails, queries read chunk texts from OpenSearch this long
     * @param embeddingCache          cache of query vectors
     * @param changedField            front-matter date field that is a note's time for the changed_after/before
     *                                filters and recent activity where a note has it (empty: the last commit's time)
     */
    public record Query(@DefaultValue("2000ms") Duration branchTimeoutMs,
                        @DefaultValue("30s") Duration embeddingCoolDownMs, @DefaultValue("10s") Duration storeCoolDownMs,
                        @DefaultValue @Valid EmbeddingCache embeddingCache,
                        @DefaultValue("") String changedField) {
    }

    /**
     * @param maxSize query vectors kept
     * @param ttl     how long a query vector is kept after it was computed
     */
    public record EmbeddingCache(@DefaultValue("10000") @Min(0) long maxSize, @DefaultValue("1h") Duration ttl) {
    }

    /**
     * @param maxSessions  sessions kept in memory (least recently used go first)
     * @param ttl          a session is forgotten this long after its last turn
     * @param maxTokens    prompt tokens kept per session
     * @param carryShare   share (0..1) of the token budget and top-k that chunks carried from the session's previous
     *                     context may take without being in the plain selection
     * @param carryMinScore a chunk carried without being in the plain selection scores at least this multiple of the
     *                     lowest score the plain selection took
     * @param statsFlushMs how often the per-project cache alignment counters and the chunk selection counts are
     *                     written to the database (and the other replicas' counts read)
     * @param store        where the sessions' previous contexts are kept: {@code memory} (this process),
     *                     {@code database} (the notes database, shared by replicas) or {@code auto} (database on
     *                     PostgreSQL, memory on the embedded H2)
     * @param trimPeriod   how often the writer deletes expired and least recently used sessions (database store)
     */
    public record Session(@DefaultValue("2000") @Min(1) int maxSessions, @DefaultValue("30m") Duration ttl,
                          @DefaultValue("8192") @Min(1) int maxTokens,
                          @DefaultValue("0.75") @DecimalMin("0") @DecimalMax("1") double carryShare,
                          @DefaultValue("0") @DecimalMin("0") double carryMinScore,
                          @DefaultValue("5s") Duration statsFlushMs,
                          @DefaultValue("auto") @Pattern(regexp = "auto|memory|database") String store,
                          @DefaultValue("1m") Duration trimPeriod) {
    }

    /**
     * @param streamTimeout   a live event stream is closed after this long (the client reconnects)
     * @param heartbeat       comment line sent on an idle stream this often
     * @param replayWindow    a stream resumed with {@code Last-Event-ID} gets the events it missed from at most this
     *                        long ago
     * @param replayMaxEvents and at most this many of them (the newest)
     */
    public record Agents(@DefaultValue("30m") Duration streamTimeout, @DefaultValue("15s") Duration heartbeat,
                         @DefaultValue("10m") Duration replayWindow, @DefaultValue("1000") @Min(0) int replayMaxEvents) {
    }

    /**
     * @param sessionIdleTimeout an MCP session no request named for this long is gone (its next request: 404, and
     *                           the client opens a new one)
     */
    public record Mcp(@DefaultValue("24h") Duration sessionIdleTimeout) {
    }

    /** @param spoolReplayMs how often access decisions spooled while the database was down are written to it */
    public record Audit(@DefaultValue("10s") Duration spoolReplayMs) {
    }

    /** @param tfidf the in-process TF-IDF branch */
    public record Retrieval(@DefaultValue Tfidf tfidf) {
    }

    /** @param metadataWeight weight of a chunk's heading, tags and key terms against its body text */
    public record Tfidf(@DefaultValue("3.0") double metadataWeight) {
    }

    /** @param dir folder of retrieval.yaml, default.yaml and roles.yaml; re-read on change */
    public record Policies(@DefaultValue("policies") Path dir) {
    }
}
