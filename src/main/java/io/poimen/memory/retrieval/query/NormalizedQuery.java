package io.poimen.memory.retrieval.query;

import java.util.List;

/**
 * A query after normalisation.
 *
 * @param text     the query without {@code #tags} and {@code @mentions}, whitespace collapsed: what the branches search
 * @param terms    {@link io.poimen.memory.vault.Terms#analyze} of {@code text} (stemmed, stop words removed)
 * @param tokens   raw word tokens of {@code text}, as written
 * @param entities ports, error names and versions, as written, first occurrence first, no duplicates
 * @param tags     {@code #tags}, lower case, without {@code #}
 * @param mentions {@code @mentions}, lower case, without {@code @}
 */
public record NormalizedQuery(String text, List<String> terms, List<String> tokens, List<String> entities,
                              List<String> tags, List<String> mentions) {
    public NormalizedQuery {
        text = text == null ? "" : text;
        terms = List.copyOf(terms);
        tokens = List.copyOf(tokens);
        entities = List.copyOf(entities);
        tags = List.copyOf(tags);
        mentions = List.copyOf(mentions);
    }

    public boolean hasFilters() {
        return !tags.isEmpty() || !mentions.isEmpty();
    }
}
