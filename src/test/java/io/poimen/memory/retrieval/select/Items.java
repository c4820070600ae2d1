package io.poimen.memory.retrieval.select;

import java.util.List;

/** Small builders for selection tests. */
final class Items {
    private Items() {
    }

    static SelectionItem item(String id, double score, int tokens) {
        return new SelectionItem(id, id.contains("#") ? id.substring(0, id.indexOf('#')) : id, 0, score, tokens,
                "text of " + id, List.of(), null);
    }

    static SelectionItem text(String id, double score, String text) {
        return new SelectionItem(id, id, 0, score, 10, text, List.of(), null);
    }

    static SelectionItem meta(String id, List<String> keyTerms, String category) {
        return new SelectionItem(id, id, 0, 0.5, 10, "", keyTerms, category);
    }
}
