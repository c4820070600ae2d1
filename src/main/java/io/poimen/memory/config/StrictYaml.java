package io.poimen.memory.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Parses a policy YAML file so that a mistake names its file, line and key: the parser reads the document through
 * maps that note every key it looks at, so a key it never read is reported as unknown, and an error the parser
 * throws (a wrong type) is reported at the key it read last. A key written twice in one mapping is an error too
 * (SnakeYAML would keep the last). The parser itself stays plain {@code Map} code.
 */
public final class StrictYaml {
    private StrictYaml() {
    }

    /** Thrown for a file that does not parse, with {@code file:line: key 'a.b': why} as the message. */
    public static final class PolicyFileException extends IllegalArgumentException {
        PolicyFileException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** @throws PolicyFileException for bad YAML, an unknown key or a value the parser rejects */
    public static <T> T parse(Path file, Function<Map<String, Object>, T> parser) throws IOException {
        return parse(file, Files.readString(file, StandardCharsets.UTF_8), parser);
    }

    /** {@link #parse(Path, Function)} of {@code text}, a content of {@code file} read before. */
    public static <T> T parse(Path file, String text, Function<Map<String, Object>, T> parser) {
        // a key written twice is a mistake, not "the last one wins" (access_level: private ... access_level: public)
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Yaml yaml = new Yaml(new SafeConstructor(options));
        Object doc;
        Node root;
        try (StringReader r = new StringReader(text); StringReader r2 = new StringReader(text)) {
            doc = yaml.load(r);
            root = yaml.compose(r2);
        } catch (RuntimeException e) {
            throw new PolicyFileException(file + ": not valid YAML: " + e.getMessage(), e);
        }
        if (doc == null) {
            doc = Map.of();
        }
        if (!(doc instanceof Map<?, ?> top)) {
            throw new PolicyFileException(file + ":1: the file must be a YAML mapping", null);
        }
        Map<String, Integer> lines = new HashMap<>();
        lines(root, "", lines);
        Reads reads = new Reads();
        // every policy file may say which format it is written in; only version 1 exists
        Object version = top.get("version");
        if (version != null) {
            reads.read.add("version");
            if (!Integer.valueOf(1).equals(version)) {
                throw new PolicyFileException(file + line(lines, "version") + ": key 'version': must be 1, got "
                        + version, null);
            }
        }
        T value;
        try {
            value = parser.apply(new Tracked(top, "", reads));
        } catch (RuntimeException e) {
            String at = reads.last == null ? "" : line(lines, reads.last) + ": key '" + reads.last + "'";
            throw new PolicyFileException(file + at + ": " + e.getMessage(), e);
        }
        for (String path : lines.keySet().stream().sorted().toList()) {
            if (!reads.read.contains(path) && parentRead(path, reads.read)) {
                throw new PolicyFileException(file + line(lines, path) + ": unknown key '" + path + "'", null);
            }
        }
        return value;
    }

    private static String line(Map<String, Integer> lines, String path) {
        Integer line = lines.get(path);
        return line == null ? "" : ":" + line;
    }

    /** Only the outermost unknown key is reported: the keys under an unread key are not looked at. */
    private static boolean parentRead(String path, Set<String> read) {
        int dot = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        return dot < 0 || read.contains(path.substring(0, dot));
    }

    private static void lines(Node node, String prefix, Map<String, Integer> out) {
        if (node instanceof MappingNode map) {
            for (NodeTuple t : map.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode key) {
                    String path = prefix.isEmpty() ? key.getValue() : prefix + "." + key.getValue();
                    out.put(path, key.getStartMark().getLine() + 1);
                    lines(t.getValueNode(), path, out);
                }
            }
        } else if (node instanceof SequenceNode list) {
            for (int i = 0; i < list.getValue().size(); i++) {
                lines(list.getValue().get(i), prefix + "[" + i + "]", out);
            }
        }
    }

    private static final class Reads {
        final Set<String> read = new LinkedHashSet<>();
        String last;

        void read(String path) {
            read.add(path);
            last = path;
        }
    }

    /** A read-only mapping that records which of its keys were read. */
    private static final class Tracked extends AbstractMap<String, Object> {
        private final Map<String, Object> values = new LinkedHashMap<>();
        private final String prefix;
        private final Reads reads;

        Tracked(Map<?, ?> source, String prefix, Reads reads) {
            this.prefix = prefix;
            this.reads = reads;
            source.forEach((k, v) -> {
                String key = String.valueOf(k);
                values.put(key, wrap(v, path(key), reads));
            });
        }

        private String path(String key) {
            return prefix.isEmpty() ? key : prefix + "." + key;
        }

        private static Object wrap(Object v, String path, Reads reads) {
            if (v instanceof Map<?, ?> m) {
                return new Tracked(m, path, reads);
            }
            if (v instanceof List<?> list) {
                List<Object> out = new ArrayList<>(list.size());
                for (int i = 0; i < list.size(); i++) {
                    Object item = list.get(i);
                    out.add(item instanceof Map<?, ?> m ? new Tracked(m, path + "[" + i + "]", reads) : item);
                    if (item instanceof Map<?, ?>) {
                        reads.read.add(path + "[" + i + "]");
                    }
                }
                return java.util.Collections.unmodifiableList(out);
            }
            return v;
        }

        @Override
        public Object get(Object key) {
            if (key instanceof String k && values.containsKey(k)) {
                reads.read(path(k));
            }
            return values.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return get(key) != null || values.containsKey(key);
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            values.keySet().forEach(k -> reads.read(path(k)));
            return java.util.Collections.unmodifiableMap(values).entrySet();
        }

        @Override
        public Collection<Object> values() {
            return entrySet().stream().map(Entry::getValue).toList();
        }
    }
}
