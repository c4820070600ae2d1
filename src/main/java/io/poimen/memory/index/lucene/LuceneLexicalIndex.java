package io.poimen.memory.index.lucene;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.vault.Chunk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
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
 * Embedded BM25 lexical index of chunks, the Lucene twin of the OpenSearch index with the same fields.
 *
 * <p>Query, mirroring OpenSearch's {@code multi_match}/{@code best_fields}: for each field a disjunction of the
 * analyzed query terms, the fields joined by a dis-max with {@code content} boosted ×2. The exact dis-max is
 * boosted ×{@value #EXACT_BOOST}; a second dis-max of {@link FuzzyQuery} clauses (max edits 1 for analyzed terms of
 * 5–7 characters, 2 from 8; shorter terms, terms a text field of a chunk in scope holds and the path field are
 * not fuzzed) supplies typo tolerance at boost 1, so exact matches
 * win. Query size is capped as described in {@link QueryTokens}. Scope ({@link TermInSetQuery} on {@code path}) and tags ({@code tags} terms) are non-scoring filters.
 */
public final class LuceneLexicalIndex implements LexicalIndex, AutoCloseable {
    static final float EXACT_BOOST = 3f;
    static final String CHUNK_ID = "chunk_id";
    static final String PATH = "path";
    private static final String PROJECT = "project";
    private static final String TAGS = "tags";
    private static final String CONTENT = "content";
    private static final String BREADCRUMB = "breadcrumb";
    private static final String HEADING = "heading";
    private static final String SOURCE = "source";
    private static final Map<String, Float> FIELD_BOOSTS =
            Map.of(CONTENT, 2f, BREADCRUMB, 1f, SOURCE, 1f, HEADING, 1f);

    private final LuceneStore store;
    private final Analyzer analyzer;
    private final boolean typoTolerant;

    /** Index in {@code directory}, which this index then owns and closes. */
    public LuceneLexicalIndex(Directory directory) {
        this(directory, true);
    }

    /** @param fuzzy whether a query term no text field holds gets the typo-tolerant clause */
    public LuceneLexicalIndex(Directory directory, boolean fuzzy) {
        this.typoTolerant = fuzzy;
        this.analyzer = new PerFieldAnalyzerWrapper(new EnglishAnalyzer(), Map.of(SOURCE, new StandardAnalyzer()));
        this.store = new LuceneStore("lexical", directory, analyzer, new BM25Similarity());
    }

    /** Index persisted in the file-system directory {@code path} (created if missing). */
    public static LuceneLexicalIndex open(Path path) {
        return open(path, true);
    }

    /** As {@link #open(Path)}; {@code fuzzy} false leaves the typo-tolerant clause out. */
    public static LuceneLexicalIndex open(Path path, boolean fuzzy) {
        return new LuceneLexicalIndex(LuceneStore.fsDirectory(path), fuzzy);
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
        try (Analyzer a = analyzer) {
            store.close();
        }
    }

    /**
     * Exact and fuzzy dis-max clauses, or null when the query has no terms after analysis. Only a term no text
     * field of a chunk in scope holds is fuzzed, and not in the path field: that is the typo case, and expanding
     * terms that are there anyway cost most of the branch's time (a Levenshtein automaton and a walk of the terms
     * dictionary per term and field). Held in scope, not anywhere in the index: otherwise a word only notes the
     * caller may not read hold would switch typo tolerance off, and which readable chunks match would tell that
     * such a note holds the word.
     *
     * @param inScope the scope's filter, null for every chunk
     */
    private Query matchQuery(String text, IndexSearcher searcher, Query inScope) throws IOException {
        List<Query> exactFields = new ArrayList<>();
        List<Query> fuzzyFields = new ArrayList<>();
        Map<String, Boolean> held = new HashMap<>(); // the text fields share one analysis: ask once per term
        for (var field : FIELD_BOOSTS.entrySet()) {
            Set<String> terms = analyze(field.getKey(), text);
            if (terms.isEmpty()) {
                continue;
            }
            BooleanQuery.Builder exact = new BooleanQuery.Builder();
            BooleanQuery.Builder fuzzy = new BooleanQuery.Builder();
            boolean anyFuzzy = false;
            int position = 0;
            for (String term : terms) {
                if (position++ == QueryTokens.MAX_TERMS) {
                    break;
                }
                Term t = new Term(field.getKey(), term);
                exact.add(new TermQuery(t), Occur.SHOULD);
                int edits = maxEdits(term);
                if (typoTolerant && edits > 0 && position <= QueryTokens.MAX_FUZZY_TERMS
                        && !field.getKey().equals(SOURCE)
                        && !held.computeIfAbsent(term, x -> held(searcher, x, inScope))) {
                    fuzzy.add(new FuzzyQuery(t, edits, 0, QueryTokens.FUZZY_EXPANSIONS, true), Occur.SHOULD);
                    anyFuzzy = true;
                }
            }
            exactFields.add(new BoostQuery(exact.build(), field.getValue()));
            if (anyFuzzy) {
                fuzzyFields.add(new BoostQuery(fuzzy.build(), field.getValue()));
            }
        }
        if (exactFields.isEmpty()) {
            return null;
        }
        BooleanQuery.Builder match = new BooleanQuery.Builder()
                .add(new BoostQuery(new DisjunctionMaxQuery(exactFields, 0f), EXACT_BOOST), Occur.SHOULD);
        if (!fuzzyFields.isEmpty()) {
            match.add(new DisjunctionMaxQuery(fuzzyFields, 0f), Occur.SHOULD);
        }
        return match.build();
    }

    /**
     * Whether a text field (content, breadcrumb, heading: the same English analysis) of a live chunk in scope holds
     * {@code term}. The terms dictionary answers most terms (a typo is in no chunk); a term it holds is looked for
     * in the scope's chunks, up to the first one (the scope's filter is cached per segment).
     */
    private static boolean held(IndexSearcher searcher, String term, Query inScope) {
        try {
            BooleanQuery.Builder fields = new BooleanQuery.Builder();
            boolean anywhere = false;
            for (String field : List.of(CONTENT, BREADCRUMB, HEADING)) {
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

    /** Allowed edits for an analyzed term: 0 below 5 characters, 1 for 5–7, 2 from 8. */
    static int maxEdits(String term) {
        int length = term.codePointCount(0, term.length());
        return length >= 8 ? 2 : length >= 5 ? 1 : 0;
    }

    private Set<String> analyze(String field, String text) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream ts = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                terms.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException("Analyzing the query failed", e);
        }
        return terms;
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
        doc.add(new TextField(CONTENT, Objects.requireNonNullElse(chunk.text(), ""), Field.Store.NO));
        doc.add(new TextField(BREADCRUMB, chunk.breadcrumb() == null ? "" : chunk.breadcrumbText(), Field.Store.NO));
        doc.add(new TextField(HEADING, Objects.requireNonNullElse(chunk.heading(), ""), Field.Store.NO));
        doc.add(new TextField(SOURCE, chunk.path(), Field.Store.NO));
        return doc;
    }
}
