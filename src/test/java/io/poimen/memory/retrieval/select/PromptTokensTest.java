package io.poimen.memory.retrieval.select;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.TokenCounter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PromptTokensTest {
    private static final TokenCounter COUNTER = new TokenCounter();

    private static ContextPrompt.Part part(Chunk c) {
        return new ContextPrompt.Part(c.id(), c.path(), c.text());
    }

    @Test
    void thePromptsTokensAreItsPartsTokensOnAfterTheOtherOnEveryExampleVaultChunk() {
        List<Chunk> chunks = ExampleVaultChunks.all();
        assertThat(chunks).hasSizeGreaterThan(100);
        // every chunk next to every chunk, in both orders: a merge across a seam would show in one of the pairs
        List<ContextPrompt.Part> all = chunks.stream().map(PromptTokensTest::part).toList();
        PromptTokens prompt = new PromptTokens(COUNTER);
        for (int i = 0; i < all.size(); i++) {
            List<ContextPrompt.Part> pair = List.of(all.get(i), all.get((i + 1) % all.size()));
            assertThat(prompt.tokens(pair)).as(pair.get(0).chunkId())
                    .isEqualTo(COUNTER.tokens(ContextPrompt.render(pair)));
        }
        Random random = new Random(13);
        for (int round = 0; round < 50; round++) {
            List<ContextPrompt.Part> context = new ArrayList<>(all);
            Collections.shuffle(context, random);
            context = context.subList(0, 1 + random.nextInt(12));
            String text = ContextPrompt.render(context);
            assertThat(prompt.tokens(context)).isEqualTo(COUNTER.tokens(text));
            assertThat(prompt.count(context)).isEqualTo(COUNTER.count(text));
        }
    }

    @Test
    void textsThatEndOrStartInTheWaysThatMergeAcrossASeamStillAddUp() {
        List<String> texts = List.of("", "  ", "ends with a full stop.", "ends in a line break\n", "...", "<chunk>",
                "</chunk>", "\n\nleading blank lines", "ends with a quote\">", "12345", "a\r\n", "emoji 🙂",
                "'s", "tab\tend\t", "<|endoftext|>", "ünïcödé wörds", "x>\n\n");
        PromptTokens prompt = new PromptTokens(COUNTER);
        for (String a : texts) {
            for (String b : texts) {
                List<ContextPrompt.Part> context = List.of(new ContextPrompt.Part("n.md#0", "n.md", a),
                        new ContextPrompt.Part("o.md#1", "o.md", b), new ContextPrompt.Part("p.md#2", "p.md", null));
                assertThat(prompt.tokens(context)).as("[" + a + "] [" + b + "]")
                        .isEqualTo(COUNTER.tokens(ContextPrompt.render(context)));
            }
        }
    }

    @Test
    void aChunkWhoseTextOrPathChangedIsTokenizedAgain() {
        PromptTokens prompt = new PromptTokens(COUNTER);
        ContextPrompt.Part before = new ContextPrompt.Part("a.md#0", "a.md", "short");
        ContextPrompt.Part edited = new ContextPrompt.Part("a.md#0", "a.md", "a much longer text than before");
        ContextPrompt.Part moved = new ContextPrompt.Part("a.md#0", "projects/p/a-longer-path.md", "short");
        for (ContextPrompt.Part p : List.of(before, edited, moved, before)) {
            assertThat(prompt.count(List.of(p))).isEqualTo(COUNTER.count(ContextPrompt.render(List.of(p))));
        }
    }

    @Test
    void aMemoThatKeepsNothingStillAnswersRight() {
        PromptTokens prompt = new PromptTokens(COUNTER, 0);
        List<ContextPrompt.Part> context = ExampleVaultChunks.all().stream().limit(5).map(PromptTokensTest::part)
                .toList();
        assertThat(prompt.tokens(context)).isEqualTo(COUNTER.tokens(ContextPrompt.render(context)));
        assertThat(prompt.tokens(context)).isEqualTo(COUNTER.tokens(ContextPrompt.render(context)));
    }
}
