package io.poimen.memory.ops;

import static io.poimen.memory.ops.Y.list;
import static io.poimen.memory.ops.Y.map;
import static io.poimen.memory.ops.Y.str;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** docker-compose.yml holds what docs/docker-compose.md promises (parsed; no Docker engine runs here). */
class DockerComposeTest {
    private final Map<String, Object> compose = load();
    private final Map<String, Object> services = map(compose, "services");

    @Test
    void everyServiceOfTheDocsTableExistsWithItsPortVolumeAndHealthcheck() throws IOException {
        List<String[]> rows = docRows();
        assertThat(rows).extracting(r -> r[0]).contains("hub", "postgres", "opensearch", "oidc", "forgejo");
        for (String[] row : rows) {
            String name = row[0];
            assertThat(services).as("service %s", name).containsKey(name);
            Map<String, Object> svc = map(services, name);
            String port = row[2];
            assertThat(list(svc, "ports")).as("%s ports", name)
                    .anyMatch(p -> p.toString().startsWith("127.0.0.1:" + port + ":"));
            String volume = row[3];
            if (!volume.equals("-")) {
                assertThat(list(svc, "volumes")).as("%s volumes", name)
                        .anyMatch(v -> v.toString().startsWith(volume + ":"));
            }
            assertThat(list(svc, "healthcheck", "test")).as("%s healthcheck", name).isNotEmpty();
        }
    }

    @Test
    void theHubWaitsForHealthyDependenciesAndTheSeededVault() {
        Map<String, Object> deps = map(services, "hub", "depends_on");
        for (String s : List.of("postgres", "opensearch", "oidc", "forgejo")) {
            assertThat(str(deps, s, "condition")).as(s).isEqualTo("service_healthy");
        }
        assertThat(str(deps, "vault-seed", "condition")).isEqualTo("service_completed_successfully");
        // every service that another waits for as healthy defines a healthcheck
        for (Object svc : services.keySet()) {
            map(services, svc.toString(), "depends_on").forEach((dep, cond) -> {
                if ("service_healthy".equals(str(cond, "condition"))) {
                    assertThat(list(services, dep, "healthcheck", "test")).as(dep).isNotEmpty();
                }
            });
        }
    }

    @Test
    void namedVolumesAreDeclaredAndTheExampleVaultIsMountedReadOnly() {
        Set<String> declared = map(compose, "volumes").keySet();
        Set<String> used = new HashSet<>();
        for (Object svc : services.keySet()) {
            for (Object v : list(services, svc.toString(), "volumes")) {
                String source = v.toString().split(":")[0];
                if (!source.startsWith(".") && !source.startsWith("/")) {
                    used.add(source);
                }
            }
        }
        assertThat(used).isEqualTo(declared);
        assertThat(list(services, "vault-seed", "volumes")).contains("./examples/vault:/seed:ro");
        assertThat(Files.isDirectory(Path.of("examples/vault"))).isTrue();
    }

    @Test
    void theHubRunsTheProdProfileWithOidcAgainstTheComposeServices() {
        Map<String, Object> env = map(services, "hub", "environment");
        assertThat(env).containsEntry("SPRING_PROFILES_ACTIVE", "prod").containsEntry("POIMEN_SECURITY_MODE", "oidc");
        assertThat(str(env, "POIMEN_DB_URL")).contains("//postgres:5432/");
        assertThat(str(env, "POIMEN_OPENSEARCH_URL")).isEqualTo("http://opensearch:9200");
        assertThat(str(env, "POIMEN_SECURITY_ISSUERURI")).startsWith("http://oidc:8080/");
        assertThat(str(env, "POIMEN_GIT_REMOTE")).startsWith("http://forgejo:3000/");
        assertThat(str(map(services, "opensearch", "environment"), "DISABLE_SECURITY_PLUGIN")).isEqualTo("true");
        assertThat(str(map(services, "opensearch", "environment"), "discovery.type")).isEqualTo("single-node");
        // the healthcheck probes the management port the hub is given
        assertThat(String.join(" ", list(services, "hub", "healthcheck", "test").stream().map(Object::toString).toList()))
                .contains("/" + env.get("MANAGEMENT_SERVER_PORT")).contains("/actuator/health/readiness");
        assertThat(Path.of(str(services, "hub", "build"), "Dockerfile")).exists();
    }

    @Test
    void theHealthcheckUsesTheReadinessGroupOfTheKubernetesManifests() throws Exception {
        Map<String, Object> k8s;
        try (var r = Files.newBufferedReader(Path.of("k8s/base/hub-config.yaml"))) {
            k8s = new org.yaml.snakeyaml.Yaml().load(r);
        }
        String readiness = "MANAGEMENT_ENDPOINT_HEALTH_GROUP_READINESS_INCLUDE";
        String group = str(map(k8s, "data"), readiness);
        assertThat(group).contains("writerLease").contains("db").contains("readinessState");
        assertThat(str(map(services, "hub", "environment"), readiness)).isEqualTo(group);
    }

    /** Rows of the "Services" table: service, image, port, volume, healthcheck, purpose. */
    private static List<String[]> docRows() throws IOException {
        List<String[]> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(Path.of("docs/docker-compose.md"))) {
            if (line.startsWith("| service |")) {
                inTable = true;
            } else if (inTable && line.startsWith("|---")) {
                continue;
            } else if (inTable && line.startsWith("|")) {
                String[] cells = line.substring(1).split("\\|");
                String[] row = new String[cells.length];
                for (int i = 0; i < cells.length; i++) {
                    row[i] = cells[i].trim().replace("`", "");
                }
                rows.add(row);
            } else if (inTable) {
                break;
            }
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> load() {
        try {
            return (Map<String, Object>) Manifests.parse(Files.readString(Path.of("docker-compose.yml")));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
