package io.poimen.memory.index.lucene;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.LinkText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;

/**
 * Embedded BM25 lexical index of chunks, the Lucene twin of the OpenSearch index with the same fields, the same
 * analysis and the same query ({@link LexicalQueryPlan}): per field a disjunction of the analysed query terms,
 * the fields joined by a dis-max with {@code content} boosted ×2 (its other fields adding the field tie-breaker
 * times their scores, 0 by default), the exact dis-max boosted ×3, and a dis-max of
 * {@link FuzzyQuery} clauses for a term no text field holds (the typo case) at boost 1, so exact matches win.
 * Scope ({@link TermInSetQuery} on {@code path}) and tags ({@code tags} terms) are non-scoring filters. Hits tie
 * by score, then chunk id ({@link LuceneStore#hits}).
 */
public final class LuceneLexicalIndex implements LexicalIndex, AutoCloseable {
    static final String CHUNK_ID = "chunk_id";
    static final String PATH = "path";
    private static final String PROJECT = "project";
    private static final String TAGS = "tags";

    private final LuceneStore store;
    private final boolean typoTolerant;
    private final float fieldTieBreaker;

    /** Index in {@code directory}, which this index then owns and closes. */
    public LuceneLexicalIndex(Directory directory) {
        this(directory, true);
    }

    /** @param fuzzy whether a query term no text field holds gets the typo-tolerant clause */
    public LuceneLexicalIndex(Directory directory, boolean fuzzy) {
        this(directory, fuzzy, 0);
    }

    /**
     * @param fieldTieBreaker what the other fields add to the best field's score
     *                        ({@code poimen.lexical.field-tie-breaker})
     */
    public LuceneLexicalIndex(Directory directory, boolean fuzzy, double fieldTieBreaker) {
        this.typoTolerant = fuzzy;
        this.fieldTieBreaker = (float) fieldTieBreaker;
        this.store = new LuceneStore("lexical", directory, LexicalQueryPlan.analyzer(), new BM25Similarity());
    }

    /** Index persisted in the file-system directory {@code path} (created if missing). */
    public static LuceneLexicalIndex open(Path path) {
        return open(path, true);
    }

    /** As {@link #open(Path)}; {@code fuzzy} false leaves the typo-tolerant clause out. */
    public static LuceneLexicalIndex open(Path path, boolean fuzzy) {
        return open(path, fuzzy, 0);
    }

    /** As {@link #open(Path, boolean)}, the fields joined with {@code fieldTieBreaker}. */
    public static LuceneLexicalIndex open(Path path, boolean fuzzy, double fieldTieBreaker) {
        return new LuceneLexicalIndex(LuceneStore.fsDirectory(path), fuzzy, fieldTieBreaker);
    }

    /** Heap-only index (tests, benchmarks). */
    public static LuceneLexicalIndex inMemory() {
        return new LuceneLexicalIndex(new ByteBuffersDirectory());
    }

    @Override
    public void upsert(List<Chunk> chunks) {
        if (chunks.isEmpty()) {
            return;
        }
        store.write(writer -> {
            for (Chunk chunk : chunks) {
                writer.updateDocument(new Term(CHUNK_ID, chunk.id()), document(chunk));
            }
        });
    }

    @Override
    public void deleteByPaths(Collection<String> paths) {
        if (!paths.isEmpty()) {
            store.write(writer -> writer.deleteDocuments(LuceneStore.anyOf(PATH, paths)));
        }
    }

    @Override
    public List<Hit> search(String query, SearchScope scope, int k) {
        if (query == null || query.isBlank() || k <= 0 || (scope.paths() != null && scope.paths().isEmpty())) {
            return List.of();
        }
        return store.hits(searcher -> {
            Query inScope = scope.paths() == null ? null
                    : store.scopeFilter(PATH, scope.paths(), searcher.getIndexReader());
            Query match = matchQuery(query, searcher, inScope);
            if (match == null) {
                return null;
            }
            BooleanQuery.Builder bool = new BooleanQuery.Builder().add(match, Occur.MUST);
            if (inScope != null) {
                bool.add(inScope, Occur.FILTER);
            }
            for (String tag : scope.tags()) {
                bool.add(new TermQuery(new Term(TAGS, tag)), Occur.FILTER);
            }
            return bool.build();
        }, k, CHUNK_ID, score -> score);
    }

    /**
     * The engine's own call, the floor {@code bench latency} compares the branch with: the BM25 query
     * {@link #search} sends (the fields' dis-max, the fuzzy clause of a term no field holds), without a scope.
     */
    public List<Hit> plainSearch(String text, int k) {
        if (text == null || text.isBlank() || k <= 0) {
            return List.of();
        }
        return store.hits(searcher -> matchQuery(text, searcher, null), k, CHUNK_ID, score -> score);
    }

    @Override
    public long count() {
        return store.count();
    }

    @Override
    public String name() {
        return "lucene-bm25";
    }

    @Override
    public void close() {
        store.close(); // the analyzer is shared (LexicalQueryPlan) and stays open
    }

    /**
     * The {@link LexicalQueryPlan}'s exact and fuzzy dis-max clauses, or null when the query has no terms after
     * analysis. Only a term no text field of a live chunk in scope holds is fuzzed ({@link #held}): held in scope,
     * not anywhere in the index, or a word only notes the caller may not read hold would switch typo tolerance off,
     * and which readable chunks match would tell that such a note holds the word.
     *
     * @param inScope the scope's filter, null for every chunk
     */
    private Query matchQuery(String text, IndexSearcher searcher, Query inScope) throws IOException {
        LexicalQueryPlan plan = LexicalQueryPlan.of(text);
        if (plan.isEmpty()) {
            return null;
        }
        Map<String, Boolean> held = new HashMap<>(); // the text fields share one analysis: ask once per term
        List<Query> exactFields = new ArrayList<>();
        List<Query> fuzzyFields = new ArrayList<>();
        for (LexicalQueryPlan.FieldTerms field : plan.fields()) {
            String name = field.field().name();
            BooleanQuery.Builder exact = new BooleanQuery.Builder();
            field.terms().forEach(term -> exact.add(new TermQuery(new Term(name, term)), Occur.SHOULD));
            exactFields.add(new BoostQuery(exact.build(), field.field().boost()));
            BooleanQuery.Builder fuzzy = new BooleanQuery.Builder();
            boolean anyFuzzy = false;
            for (String term : typoTolerant ? field.typoCandidates() : List.<String>of()) {
                if (!held.computeIfAbsent(term, x -> held(searcher, x, inScope))) {
                    fuzzy.add(new FuzzyQuery(new Term(name, term), LexicalQueryPlan.maxEdits(term), 0,
                            QueryTokens.FUZZY_EXPANSIONS, true), Occur.SHOULD);
                    anyFuzzy = true;
                }
            }
            if (anyFuzzy) {
                fuzzyFields.add(new BoostQuery(fuzzy.build(), field.field().boost()));
            }
        }
        BooleanQuery.Builder match = new BooleanQuery.Builder().add(new BoostQuery(
                new DisjunctionMaxQuery(exactFields, fieldTieBreaker), LexicalQueryPlan.EXACT_BOOST), Occur.SHOULD);
        if (!fuzzyFields.isEmpty()) {
            match.add(new DisjunctionMaxQuery(fuzzyFields, 0f), Occur.SHOULD);
        }
        return match.build();
    }

    /**
     * Whether a text field (content, breadcrumb, heading, links: the same analysis) of a live chunk in scope holds
     * {@code term}. The terms dictionary answers most terms (a typo is in no chunk); a term it holds is looked for
     * in the scope's chunks, up to the first one (the scope's filter is cached per segment).
     */
    private static boolean held(IndexSearcher searcher, String term, Query inScope) {
        try {
            BooleanQuery.Builder fields = new BooleanQuery.Builder();
            boolean anywhere = false;
            for (String field : LexicalQueryPlan.TEXT_FIELDS) {
                Term t = new Term(field, term);
                if (searcher.getIndexReader().docFreq(t) > 0) {
                    fields.add(new TermQuery(t), Occur.SHOULD);
                    anywhere = true;
                }
            }
            if (!anywhere) {
                return false;
            }
            BooleanQuery.Builder q = new BooleanQuery.Builder().add(fields.build(), Occur.FILTER);
            if (inScope != null) {
                q.add(inScope, Occur.FILTER);
            }
            return LuceneStore.anyLiveMatch(searcher, q.build());
        } catch (IOException e) {
            throw new UncheckedIOException("Reading the terms of the lexical index failed", e);
        }
    }

    private static Document document(Chunk chunk) {
        Document doc = new Document();
        doc.add(new StringField(CHUNK_ID, chunk.id(), Field.Store.YES));
        doc.add(new StringField(PATH, chunk.path(), Field.Store.NO));
        if (chunk.project() != null) {
            doc.add(new StringField(PROJECT, chunk.project(), Field.Store.NO));
        }
        for (String tag : chunk.tags() == null ? List.<String>of() : chunk.tags()) {
            doc.add(new StringField(TAGS, tag, Field.Store.NO));
        }
        LinkText text = LinkText.of(chunk.text());
        doc.add(new TextField(LexicalQueryPlan.CONTENT, text.own(), Field.Store.NO));
        doc.add(new TextField(LexicalQueryPlan.LINKS, text.references(), Field.Store.NO));
        doc.add(new TextField(LexicalQueryPlan.BREADCRUMB, chunk.breadcrumb() == null ? "" : chunk.breadcrumbText(), Field.Store.NO));
        doc.add(new TextField(LexicalQueryPlan.HEADING, Objects.requireNonNullElse(chunk.heading(), ""), Field.Store.NO));
        doc.add(new TextField(LexicalQueryPlan.SOURCE, chunk.path(), Field.Store.NO));
        return doc;
    }
}
