package io.poimen.memory.retrieval.filter;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the search filters look at in one note: its tags (front matter and inline, lower case), its front-matter
 * fields as stored (JSON values: strings, numbers, booleans, lists, maps; YAML dates as ISO text) and when it
 * changed (the configured front-matter date field, else the time of the last commit that changed it).
 */
public record NoteFacts(String path, String title, List<String> tags, Map<String, Object> fields, Instant changed) {
}
