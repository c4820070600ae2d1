package io.poimen.memory.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Offers the defaults of the {@code poimen.*} properties to placeholders: a route's {@code {{poimen.x}}} and an
 * {@code application.yaml} {@code ${poimen.x}} resolve from the Environment, which knows nothing of a record's
 * {@code @DefaultValue}. The defaults are read from the configuration metadata the build generates from those
 * annotations, and added as the last property source, so anything set anywhere wins. Durations are written as
 * milliseconds, the unit Camel's timer {@code period} and multicast {@code timeout} take; a duration an operator
 * set is offered in milliseconds too (first property source), since Camel reads an ISO-8601 {@code PT30S} as 0.
 */
public class TreeDefaults implements EnvironmentPostProcessor, Ordered {
    public static final String SOURCE = "poimenDefaults";
    public static final String DURATIONS = "poimenDurationsInMillis";
    static final String METADATA = "META-INF/spring-configuration-metadata.json";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE, Map.copyOf(defaults())));
        Map<String, Object> millis = new TreeMap<>();
        for (JsonNode p : metadata().path("properties")) {
            String name = p.path("name").asText();
            String value = environment.getProperty(name);
            if (name.startsWith("poimen.") && value != null && "java.time.Duration".equals(p.path("type").asText())) {
                try {
                    millis.put(name, String.valueOf(DurationStyle.detectAndParse(value).toMillis()));
                } catch (IllegalArgumentException e) {
                    // left as written: binding the record stops the start with the key and the value
                }
            }
        }
        environment.getPropertySources().addFirst(new MapPropertySource(DURATIONS, Map.copyOf(millis)));
    }

    /** Every {@code poimen.*} key of the metadata that has a default, with that default as a placeholder sees it. */
    public static Map<String, Object> defaults() {
        Map<String, Object> out = new TreeMap<>();
        for (JsonNode p : metadata().path("properties")) {
            String name = p.path("name").asText();
            if (!name.startsWith("poimen.") || !p.has("defaultValue")) {
                continue;
            }
            String value = p.get("defaultValue").asText();
            out.put(name, "java.time.Duration".equals(p.path("type").asText())
                    ? String.valueOf(DurationStyle.detectAndParse(value).toMillis()) : value);
        }
        return out;
    }

    /** The generated metadata of this module (the first on the class path that describes {@code poimen}). */
    public static JsonNode metadata() {
        ClassLoader loader = TreeDefaults.class.getClassLoader();
        try {
            var urls = loader.getResources(METADATA);
            while (urls.hasMoreElements()) {
                try (InputStream in = urls.nextElement().openStream()) {
                    JsonNode node = new ObjectMapper().readTree(in);
                    for (JsonNode g : node.path("groups")) {
                        if ("poimen".equals(g.path("name").asText())) {
                            return node;
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + METADATA, e);
        }
        throw new IllegalStateException(METADATA + " of poimen-memory is missing: the build runs "
                + "spring-boot-configuration-processor to write it");
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
