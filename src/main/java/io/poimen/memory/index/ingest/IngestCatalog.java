package io.poimen.memory.index.ingest;

import io.poimen.memory.vault.WikiLink;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the last ingest left behind, kept in memory so that an ingest of a git diff reads only the changed files
 * and rows: every vault file, the aliases of every stored note (its keys are the stored notes), and every stored
 * link as resolved, by source note.
 */
record IngestCatalog(Path root, Set<String> files, Map<String, List<String>> aliases,
                     Map<String, List<WikiLink>> links) {
}
