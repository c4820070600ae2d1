package io.poimen.memory.index.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

class LuceneStoreTest {

    @Test
    void theScopeFilterIsLeftOutOnlyWhileTheScopeHoldsThePathOfEveryDocument() throws Exception {
        try (LuceneStore store = new LuceneStore("t", new ByteBuffersDirectory(), new KeywordAnalyzer(),
                new BM25Similarity())) {
            store.write(w -> {
                w.addDocument(doc("a.md#0", "a.md"));
                w.addDocument(doc("b.md#0", "b.md"));
            });
            Set<String> both = new HashSet<>(List.of("a.md", "b.md"));
            Set<String> onlyA = Set.of("a.md");

            assertThat(filter(store, "path", both)).isNull();
            assertThat(filter(store, "path", onlyA)).isNotNull();

            store.write(w -> w.addDocument(doc("c.md#0", "c.md")));
            assertThat(filter(store, "path", both))
                    .as("a new reader is checked again").isNotNull();

            store.write(w -> w.deleteDocuments(new Term("path", "c.md")));
            Set<String> all = new HashSet<>(List.of("a.md", "b.md", "c.md"));
            assertThat(filter(store, "path", all)).isNull();
        }
    }

    @Test
    void aDocumentWithoutThePathFieldKeepsTheFilter() throws Exception {
        try (LuceneStore store = new LuceneStore("t", new ByteBuffersDirectory(), new KeywordAnalyzer(),
                new BM25Similarity())) {
            store.write(w -> {
                w.addDocument(doc("a.md#0", "a.md"));
                Document bare = new Document();
                bare.add(new StringField("chunk_id", "x", Field.Store.YES));
                w.addDocument(bare);
            });
            assertThat(filter(store, "path", Set.of("a.md"))).isNotNull();
        }
    }

    private static Object filter(LuceneStore store, String field, Set<String> paths) {
        return store.read(s -> store.scopeFilter(field, paths, s.getIndexReader()));
    }

    private static Document doc(String id, String path) {
        Document d = new Document();
        d.add(new StringField("chunk_id", id, Field.Store.YES));
        d.add(new StringField("path", path, Field.Store.NO));
        return d;
    }
}
