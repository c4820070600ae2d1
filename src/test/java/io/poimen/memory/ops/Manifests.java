package io.poimen.memory.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The Kubernetes objects of one kustomize directory, read with SnakeYAML (no cluster, no kustomize binary). */
final class Manifests {
    static final Path K8S = Path.of("k8s");
    static final Path BASE = K8S.resolve("base");

    private final List<Map<String, Object>> objects;

    private Manifests(List<Map<String, Object>> objects) {
        this.objects = objects;
    }

    /** Every object of the resources listed in {@code dir/kustomization.yaml}. */
    static Manifests of(Path dir) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object resource : Y.list(load(dir.resolve("kustomization.yaml")).get(0), "resources")) {
            Path p = dir.resolve(resource.toString());
            if (!Files.isDirectory(p)) {
                load(p).forEach(out::add);
            }
        }
        return new Manifests(out);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> load(Path file) {
        try {
            List<Map<String, Object>> docs = new ArrayList<>();
            for (Object doc : yaml().loadAll(Files.readString(file))) {
                if (doc instanceof Map<?, ?> m) {
                    docs.add((Map<String, Object>) m);
                } else if (doc instanceof List<?> ops) {
                    docs.add(Map.of("$jsonPatch", ops));
                }
            }
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Object parse(String text) {
        return yaml().load(text);
    }

    static List<Path> yamlFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        }
    }

    private static Yaml yaml() {
        return new Yaml(new SafeConstructor(new LoaderOptions()));
    }

    List<Map<String, Object>> all() {
        return objects;
    }

    List<Map<String, Object>> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
    }

    Optional<Map<String, Object>> find(String kind, String name) {
        return ofKind(kind).stream().filter(o -> name.equals(Y.str(o, "metadata", "name"))).findFirst();
    }

    Map<String, Object> get(String kind, String name) {
        return find(kind, name).orElseThrow(() -> new AssertionError("no " + kind + " named " + name));
    }
}
