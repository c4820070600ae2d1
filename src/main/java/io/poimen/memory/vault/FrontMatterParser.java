package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * YAML front matter between a leading {@code ---} line and the next {@code ---} (or {@code ...}) line.
 * Never throws: YAML that does not parse gives a {@link FrontMatter} with {@code error} set and nothing else.
 */
@Component
public class FrontMatterParser {

    /** Where the front matter block is: the YAML text and the offset where the body starts. */
    record Block(String yaml, int bodyStart) {
    }

    public FrontMatter parse(String markdown) {
        Block block = find(markdown);
        if (block == null) {
            return FrontMatter.EMPTY;
        }
        Object loaded;
        try {
            loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(block.yaml());
        } catch (RuntimeException e) {
            return new FrontMatter(null, List.of(), List.of(), Map.of(), "front matter is not valid YAML: "
                    + firstLine(e.getMessage()));
        }
        if (loaded == null) {
            return FrontMatter.EMPTY;
        }
        if (!(loaded instanceof Map<?, ?> map)) {
            return new FrontMatter(null, List.of(), List.of(), Map.of(), "front matter is not a YAML mapping");
        }
        Map<String, Object> raw = new LinkedHashMap<>();
        map.forEach((k, v) -> raw.put(String.valueOf(k), v));
        Object title = raw.get("title");
        return new FrontMatter(title == null || title instanceof Collection<?> ? null : title.toString().strip(),
                aliases(first(raw, "aliases", "alias")), tags(first(raw, "tags", "tag")), raw, null);
    }

    /** The markdown after the front matter block (all of it when there is none). */
    public String body(String markdown) {
        Block block = find(markdown);
        return block == null ? markdown : markdown.substring(block.bodyStart());
    }

    /** Tag text as Obsidian treats it: {@code #} stripped, lower case. Null when nothing is left. */
    public static String normalizeTag(String tag) {
        String t = tag.strip();
        while (t.startsWith("#")) {
            t = t.substring(1);
        }
        return t.isEmpty() ? null : t.toLowerCase(Locale.ROOT);
    }

    static Block find(String markdown) {
        if (markdown == null || !(markdown.startsWith("---\n") || markdown.startsWith("---\r\n"))) {
            return null;
        }
        int lineStart = markdown.indexOf('\n') + 1;
        while (lineStart < markdown.length()) {
            int nl = markdown.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? markdown.length() : nl;
            String line = markdown.substring(lineStart, lineEnd).stripTrailing();
            if (line.equals("---") || line.equals("...")) {
                int yamlStart = markdown.indexOf('\n') + 1;
                return new Block(markdown.substring(yamlStart, lineStart), nl < 0 ? markdown.length() : nl + 1);
            }
            lineStart = lineEnd + 1;
        }
        return null;
    }

    private static Object first(Map<String, Object> raw, String key, String fallback) {
        return raw.containsKey(key) ? raw.get(key) : raw.get(fallback);
    }

    private static List<String> aliases(Object value) {
        Set<String> out = new LinkedHashSet<>();
        for (Object item : items(value)) {
            for (String a : item.toString().split(",")) {
                if (!a.isBlank()) {
                    out.add(a.strip());
                }
            }
        }
        return List.copyOf(out);
    }

    private static List<String> tags(Object value) {
        Set<String> out = new LinkedHashSet<>();
        for (Object item : items(value)) {
            for (String t : item.toString().split("[,\\s]+")) {
                String tag = normalizeTag(t);
                if (tag != null) {
                    out.add(tag);
                }
            }
        }
        return List.copyOf(out);
    }

    private static List<Object> items(Object value) {
        List<Object> out = new ArrayList<>();
        if (value instanceof Collection<?> c) {
            c.stream().filter(v -> v != null && !(v instanceof Map<?, ?>)).forEach(out::add);
        } else if (value != null && !(value instanceof Map<?, ?>)) {
            out.add(value);
        }
        return out;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
