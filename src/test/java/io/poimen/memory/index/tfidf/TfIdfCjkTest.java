package io.poimen.memory.index.tfidf;

import static io.poimen.memory.index.tfidf.TestChunks.chunk;
import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.Hit;
import io.poimen.memory.vault.Chunk;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The TF-IDF branch on notes written in Japanese and Chinese: searchable by their words, through the same analysis
 * as the BM25 indexes ({@code VaultTextAnalyzer}), in the index's term statistics and in the query.
 */
class TfIdfCjkTest {
    private static final String P = "projects/notes/";
    private final TfIdfIndex index = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);

    private List<String> search(String query) {
        return index.search(query, "notes", null, 10).stream().map(Hit::chunkId).toList();
    }

    @Test
    void japaneseNotesAreFoundByTheirWords() {
        index.addAll(List.of(
                chunk(P + "kyoto.md", 0, "京都", "京都は千年以上にわたって日本の都であり、多くの寺や神社が残っている。"),
                chunk(P + "tokyo.md", 0, "東京", "東京の人口は約千四百万人で、東京都の都心には高層ビルが多い。"),
                chunk(P + "cat.md", 0, "動物", "猫は古くから人と暮らしてきた動物で、ネズミを捕まえる。"),
                chunk(P + "proverb.md", 0, "ことわざ", "人の口に戸は立てられない。人は口をつつしむべきだ。"),
                chunk(P + "backup.md", 0, "運用", "データベースのバックアップは毎晩取得し、復元手順を月に一度確認する。")));

        // a two-character word ranks the note holding it above one holding its characters apart, twice each
        assertThat(search("人口")).first().isEqualTo(Chunk.idOf(P + "tokyo.md", 0));
        assertThat(index.idf("人口")).isGreaterThan(index.idf("人"));
        assertThat(search("猫")).containsExactly(Chunk.idOf(P + "cat.md", 0));
        assertThat(search("データベースの復元手順はどこですか")).first().isEqualTo(Chunk.idOf(P + "backup.md", 0));
        assertThat(search("寺や神社が残る古い都")).first().isEqualTo(Chunk.idOf(P + "kyoto.md", 0));
    }

    @Test
    void chineseNotesAreFoundByTheirWords() {
        index.addAll(List.of(
                chunk(P + "db.md", 0, "数据库", "每天晚上备份数据库，每月检查一次恢复流程。"),
                chunk(P + "net.md", 0, "网络", "如果服务无法访问，先检查防火墙和域名解析。"),
                chunk(P + "team.md", 0, "团队", "新同事第一周要熟悉代码库和发布流程。"),
                chunk(P + "words.md", 0, "汉字", "头发和布，流水和工程，出发前买布，水流过程序。")));

        assertThat(search("数据库备份")).first().isEqualTo(Chunk.idOf(P + "db.md", 0));
        assertThat(search("防火墙")).first().isEqualTo(Chunk.idOf(P + "net.md", 0));
        assertThat(search("发布流程是什么")).first().isEqualTo(Chunk.idOf(P + "team.md", 0));
        assertThat(index.documentFrequency("流程")).isEqualTo(2);
    }

    @Test
    void scopeAndProjectStillApply() {
        index.addAll(List.of(chunk(P + "db.md", 0, "数据库", "每天晚上备份数据库。"),
                chunk("projects/other/db.md", 0, "数据库", "每天晚上备份数据库。")));

        assertThat(index.search("备份", "notes", Set.of(P + "db.md"), 10)).extracting(Hit::chunkId)
                .containsExactly(Chunk.idOf(P + "db.md", 0));
    }
}
