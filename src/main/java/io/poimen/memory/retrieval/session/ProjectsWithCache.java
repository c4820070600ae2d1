package io.poimen.memory.retrieval.session;

import io.poimen.memory.api.VaultViews;
import java.util.List;
import java.util.Map;
import org.apache.camel.Body;

/** {@code GET /memory/projects}: each readable project with its measured cache alignment. */
public class ProjectsWithCache {

    public record CacheAlignment(long chunksServed, long tokensServed, long tokensReused, Double hitRatio) {
    }

    public record Project(String name, int notes, String indexPath, CacheAlignment cacheAlignment) {
    }

    public record Projects(List<Project> projects) {
    }

    private final ProjectCacheStats stats;

    public ProjectsWithCache(ProjectCacheStats stats) {
        this.stats = stats;
    }

    public Projects add(@Body VaultViews.Projects readable) {
        Map<String, ProjectCacheStats.Totals> totals = stats.totals();
        return new Projects(readable.projects().stream().map(p -> {
            ProjectCacheStats.Totals t = totals.getOrDefault(p.name(), new ProjectCacheStats.Totals(0, 0, 0));
            return new Project(p.name(), p.notes(), p.indexPath(),
                    new CacheAlignment(t.chunksServed(), t.tokensServed(), t.tokensReused(), t.hitRatio()));
        }).toList());
    }
}
