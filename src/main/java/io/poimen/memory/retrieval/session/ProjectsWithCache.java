package io.poimen.memory.retrieval.session;

import io.poimen.memory.api.VaultViews;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import java.util.List;
import java.util.Map;
import org.apache.camel.Body;
import org.apache.camel.Exchange;

/**
 * {@code GET /memory/projects}: each readable project, and for an operator its measured cache alignment. The
 * alignment counts every caller's contexts, chunks of notes this caller may not read included (a chunk served to
 * another caller moves {@code tokens_served} by its size), so other callers get the projects without it.
 */
public class ProjectsWithCache {

    public record CacheAlignment(long chunksServed, long tokensServed, long tokensReused, Double hitRatio) {
    }

    /** @param cacheAlignment null (left out of the JSON) for a caller who is not an operator */
    public record Project(String name, int notes, String indexPath, CacheAlignment cacheAlignment) {
    }

    public record Projects(List<Project> projects) {
    }

    private final ProjectCacheStats stats;
    private final CallerResolver callers;
    private final Access checks;

    public ProjectsWithCache(ProjectCacheStats stats, CallerResolver callers, Access checks) {
        this.stats = stats;
        this.callers = callers;
        this.checks = checks;
    }

    public Projects add(@Body VaultViews.Projects readable, Exchange exchange) {
        if (!checks.isAdmin(callers.caller(exchange), ExchangeSecurity.traceId(exchange))) {
            return new Projects(readable.projects().stream()
                    .map(p -> new Project(p.name(), p.notes(), p.indexPath(), null)).toList());
        }
        Map<String, ProjectCacheStats.Totals> totals = stats.totals();
        return new Projects(readable.projects().stream().map(p -> {
            ProjectCacheStats.Totals t = totals.getOrDefault(p.name(), new ProjectCacheStats.Totals(0, 0, 0));
            return new Project(p.name(), p.notes(), p.indexPath(),
                    new CacheAlignment(t.chunksServed(), t.tokensServed(), t.tokensReused(), t.hitRatio()));
        }).toList());
    }
}
