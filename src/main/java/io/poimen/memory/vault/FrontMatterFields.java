package io.poimen.memory.vault;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Sets or removes one top-level field of a note's front matter and leaves every other line as it was written
 * (comments, order, quoting). A field is its {@code key:} line at the start of a line plus the lines that belong to
 * it (indented, or list items of a block sequence written at column 0); a new field goes last; a note without
 * front matter gets a block. The result must still be a YAML mapping.
 */
public final class FrontMatterFields {
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

    private FrontMatterFields() {
    }

    /**
     * @throws IllegalArgumentException for a field name that is not a plain key, or front matter that is not a YAML
     *                                  mapping (before or after the change)
     */
    public static String set(String markdown, String field, Object value) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put(checked(field), value);
        return edit(markdown, field, dump(one));
    }

    /** The note without the field; unchanged when the field is absent. */
    public static String remove(String markdown, String field) {
        return edit(markdown, checked(field), "");
    }

    private static String edit(String markdown, String field, String replacement) {
        FrontMatterParser.Block block = FrontMatterParser.find(markdown);
        if (block == null) {
            return replacement.isEmpty() ? markdown : "---\n" + replacement + "---\n" + markdown;
        }
        requireMapping(block.yaml());
        int yamlStart = markdown.indexOf('\n') + 1;
        String yaml = block.yaml();
        String[] lines = yaml.split("\n", -1);
        StringBuilder out = new StringBuilder();
        boolean inField = false;
        boolean replaced = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            boolean last = i == lines.length - 1;
            if (last && line.isEmpty()) {
                break; // the split's empty tail after the final newline
            }
            if (startsField(line, field)) {
                inField = true;
                out.append(replacement);
                replaced = true;
                continue;
            }
            if (inField && (line.isBlank() || Character.isWhitespace(line.charAt(0)) || line.startsWith("- "))) {
                continue;
            }
            inField = false;
            out.append(line).append('\n');
        }
        if (!replaced) {
            out.append(replacement);
        }
        String newYaml = out.toString();
        requireMapping(newYaml);
        int closing = yamlStart + yaml.length();
        return markdown.substring(0, yamlStart) + newYaml + markdown.substring(closing);
    }

    private static boolean startsField(String line, String field) {
        for (String key : new String[] {field, "\"" + field + "\"", "'" + field + "'"}) {
            if (line.startsWith(key + ":") && (line.length() == key.length() + 1
                    || Character.isWhitespace(line.charAt(key.length() + 1)))) {
                return true;
            }
        }
        return false;
    }

    private static String checked(String field) {
        if (field == null || !KEY.matcher(field).matches()) {
            throw new IllegalArgumentException("a front matter field is a plain top-level key (letters, digits, "
                    + "'_', '-', '.'), got " + field);
        }
        return field;
    }

    private static void requireMapping(String yaml) {
        Object loaded;
        try {
            loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the note's front matter is not valid YAML; fix it as a whole first");
        }
        if (loaded != null && !(loaded instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("the note's front matter is not a YAML mapping");
        }
    }

    private static String dump(Map<String, Object> one) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndicatorIndent(0);
        options.setIndent(2);
        return new Yaml(new Representer(options), options).dump(one);
    }
}
