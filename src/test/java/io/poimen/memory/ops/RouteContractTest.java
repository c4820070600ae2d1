package io.poimen.memory.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.web.HubWebTestBase;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.yaml.snakeyaml.Yaml;

/**
 * The YAML ↔ Java contract (issue 15 item 7): every bean a route file under {@code routes/} names exists in the
 * running hub and has the public method the route calls; every {@code {{placeholder}}} without a default
 * resolves; every exchange property a route reads is set by a route or named by a constant in the Java code.
 * Names are strings on both sides, so nothing else checks them before a request hits the step.
 */
class RouteContractTest extends HubWebTestBase {
    private static final Pattern BEAN_REF = Pattern.compile("#bean:([A-Za-z0-9_]+)");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([^}:]+)(:[^}]*)?}}");
    private static final Pattern READ_PROPERTY = Pattern.compile("\\$\\{exchangeProperty\\.([A-Za-z0-9_]+)");

    @Autowired
    ApplicationContext spring;

    @Autowired
    Environment environment;

    @Test
    void everyBeanMethodPlaceholderAndPropertyARouteNamesExists() throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> setProperties = new ArrayList<>();
        List<String> readProperties = new ArrayList<>();
        int beanSteps = 0;
        for (Path file : routeFiles()) {
            String text = Files.readString(file);
            for (Object doc : new Yaml().loadAll(text)) {
                beanSteps += walk(doc, file, problems, setProperties);
            }
            Matcher ref = BEAN_REF.matcher(text);
            while (ref.find()) {
                if (!spring.containsBean(ref.group(1))) {
                    problems.add(file.getFileName() + ": no bean '" + ref.group(1) + "'");
                }
            }
            Matcher ph = PLACEHOLDER.matcher(text);
            while (ph.find()) {
                if (ph.group(2) == null && environment.getProperty(ph.group(1).trim()) == null) {
                    problems.add(file.getFileName() + ": property '" + ph.group(1) + "' is not set and has no default");
                }
            }
            Matcher read = READ_PROPERTY.matcher(text);
            while (read.find()) {
                readProperties.add(read.group(1));
            }
        }
        String javaConstants = javaStringLiterals();
        for (String name : readProperties) {
            boolean camelOwn = name.startsWith("Camel");
            if (!camelOwn && !setProperties.contains(name) && !javaConstants.contains("\"" + name + "\"")) {
                problems.add("exchange property '" + name + "' is read but neither a route nor the code sets it");
            }
        }
        assertThat(beanSteps).as("bean steps found in routes/").isGreaterThan(40);
        assertThat(problems).isEmpty();
    }

    @Test
    void aMisspelledMethodIsCaught() {
        List<String> problems = new ArrayList<>();
        checkBean("selectResults", "selct", "test.yaml", problems);
        checkBean("noSuchBean", "parse", "test.yaml", problems);
        assertThat(problems).containsExactly("test.yaml: bean 'selectResults' has no public method 'selct'",
                "test.yaml: no bean 'noSuchBean'");
    }

    /** Checks every {@code bean: {ref, method}} below {@code node}; collects setProperty names. */
    @SuppressWarnings("unchecked")
    private int walk(Object node, Path file, List<String> problems, List<String> setProperties) {
        int found = 0;
        if (node instanceof Map<?, ?> map) {
            Object bean = map.get("bean");
            if (bean instanceof Map<?, ?> b && b.get("ref") != null) {
                checkBean(String.valueOf(b.get("ref")), b.get("method") == null ? null : String.valueOf(b.get("method")),
                        file.getFileName().toString(), problems);
                found++;
            }
            Object set = map.get("setProperty");
            if (set instanceof Map<?, ?> s && s.get("name") != null) {
                setProperties.add(String.valueOf(s.get("name")));
            }
            for (Object v : ((Map<Object, Object>) map).values()) {
                found += walk(v, file, problems, setProperties);
            }
        } else if (node instanceof List<?> list) {
            for (Object v : list) {
                found += walk(v, file, problems, setProperties);
            }
        }
        return found;
    }

    private void checkBean(String ref, String method, String file, List<String> problems) {
        if (!spring.containsBean(ref)) {
            problems.add(file + ": no bean '" + ref + "'");
            return;
        }
        if (method == null) {
            return;
        }
        String name = method.contains("(") ? method.substring(0, method.indexOf('(')) : method;
        Class<?> type = AopUtils.getTargetClass(spring.getBean(ref));
        boolean exists = Arrays.stream(type.getMethods())
                .anyMatch(m -> m.getName().equals(name) && Modifier.isPublic(m.getModifiers()) && !isObjectMethod(m));
        if (!exists) {
            problems.add(file + ": bean '" + ref + "' has no public method '" + name + "'");
        }
    }

    private static boolean isObjectMethod(Method m) {
        return m.getDeclaringClass() == Object.class;
    }

    private static List<Path> routeFiles() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("routes"))) {
            List<Path> yaml = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
            assertThat(yaml).as("route files").isNotEmpty();
            return yaml;
        }
    }

    private static String javaStringLiterals() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                all.append(Files.readString(f));
            }
        }
        return all.toString();
    }
}
