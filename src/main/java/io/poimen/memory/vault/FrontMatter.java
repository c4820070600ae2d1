package io.poimen.memory.vault;

import java.util.List;
import java.util.Map;

/** YAML front matter of a note; {@code error} is set when the block did not parse (the body is still used). */
public record FrontMatter(String title, List<String> aliases, List<String> tags, Map<String, Object> raw, String error) {
    public static final FrontMatter EMPTY = new FrontMatter(null, List.of(), List.of(), Map.of(), null);
}
