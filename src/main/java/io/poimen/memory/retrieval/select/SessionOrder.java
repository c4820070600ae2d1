package io.poimen.memory.retrieval.select;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The order of a session's context: the chunks of the previous context that are still selected, in their previous
 * order, first; then the newly selected ones, best score first. Only selected chunks appear, so the set (and its
 * token count) is exactly the plain selection's; only the order differs.
 *
 * <p>Why: a model provider reuses its cached prompt prefix up to the first differing token. Chunks that stay
 * selected over several turns drift to the front (they keep the position they had), so churn happens at the tail
 * and the front of the prompt stays what the model has already processed.
 */
public final class SessionOrder {
    private SessionOrder() {
    }

    /**
     * @param previous       the session's previous context, in its order (empty on the first turn)
     * @param selectedByScore this turn's selected chunk ids, best first
     */
    public static List<String> arrange(List<String> previous, List<String> selectedByScore) {
        Set<String> selected = new LinkedHashSet<>(selectedByScore);
        List<String> out = new ArrayList<>(selected.size());
        for (String id : previous) {
            if (selected.remove(id)) {
                out.add(id);
            }
        }
        out.addAll(selected);
        return out;
    }
}
