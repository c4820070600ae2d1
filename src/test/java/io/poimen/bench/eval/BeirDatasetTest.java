package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BeirDatasetTest {

    private static BeirDataset threeDocuments(Path dir) throws IOException {
        BeirFolders.write(dir, """
                {"_id": "d1", "title": "One", "text": "first"}

                {"_id": "d2", "title": "", "text": "second"}
                {"_id": "d3", "title": "Three", "text": "third"}
                """, """
                {"_id": "q1", "text": "which is first"}
                {"_id": "q2", "text": "not judged"}
                """, "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td3\t0\n");
        return BeirDataset.load(dir);
    }

    @Test
    void theFirstDocumentsKeepTheCorpusOrderAndEveryQueryAndJudgement(@TempDir Path dir) throws IOException {
        BeirDataset set = threeDocuments(dir);

        BeirDataset two = set.firstDocuments(2);

        assertThat(two.corpus()).extracting(BeirDataset.Doc::id).containsExactly("d1", "d2");
        assertThat(two.queries()).isEqualTo(set.queries());
        assertThat(two.qrels()).isEqualTo(set.qrels());
        assertThat(two.judgedQueries()).containsOnlyKeys("q1");
        assertThat(two.name()).isEqualTo(set.name());
    }

    @Test
    void zeroOrMoreThanTheCorpusHoldsMeansTheWholeSet(@TempDir Path dir) throws IOException {
        BeirDataset set = threeDocuments(dir);

        assertThat(set.firstDocuments(0).corpus()).hasSize(3);
        assertThat(set.firstDocuments(3).corpus()).hasSize(3);
        assertThat(set.firstDocuments(10).corpus()).extracting(BeirDataset.Doc::id).containsExactly("d1", "d2", "d3");
    }
}
