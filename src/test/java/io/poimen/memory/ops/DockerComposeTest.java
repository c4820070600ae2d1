package io.poimen.memory.ops;

import static io.poimen.memory.ops.Y.list;
import static io.poimen.memory.ops.Y.map;
import static io.poimen.memory.ops.Y.maps;
import static io.poimen.memory.ops.Y.str;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
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
        assertThat(rows).extracting(r -> r[0]).contains("hub", "postgres", "opensearch", "keycloak", "forgejo");
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
        for (String s : List.of("postgres", "opensearch", "keycloak", "forgejo")) {
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
        assertThat(str(env, "POIMEN_SECURITY_JWKSETURI")).startsWith("http://keycloak:8080/");
        assertThat(str(env, "POIMEN_GIT_REMOTE")).startsWith("http://forgejo:3000/");
        assertThat(str(map(services, "opensearch", "environment"), "DISABLE_SECURITY_PLUGIN")).isEqualTo("true");
        assertThat(str(map(services, "opensearch", "environment"), "discovery.type")).isEqualTo("single-node");
        // the healthcheck probes the management port the hub is given
        assertThat(String.join(" ", list(services, "hub", "healthcheck", "test").stream().map(Object::toString).toList()))
                .contains("/" + env.get("MANAGEMENT_SERVER_PORT")).contains("/actuator/health/readiness");
        assertThat(Path.of(str(services, "hub", "build"), "Dockerfile")).exists();
    }

    @Test
    @SuppressWarnings("unchecked")
    void keycloakServesTheRealmOfTheRepositoryWithTheClaimsTheHubReads() throws IOException {
        Map<String, Object> keycloak = map(services, "keycloak");
        String version = Files.readAllLines(Path.of("scripts/keycloak.sh")).stream()
                .filter(l -> l.startsWith("KC_VERSION=")).findFirst().orElseThrow()
                .replaceAll("^KC_VERSION=\\$\\{KC_VERSION:-([^}]+)}$", "$1");
        assertThat(str(keycloak, "image")).as("the version the tests run").isEqualTo("quay.io/keycloak/keycloak:" + version);
        assertThat(list(keycloak, "command")).contains("start-dev", "--import-realm");
        assertThat(list(keycloak, "volumes")).contains("./examples/keycloak:/opt/keycloak/data/import:ro");

        Map<String, Object> realm = new ObjectMapper().readValue(
                Path.of("examples/keycloak/poimen-realm.json").toFile(), Map.class);
        Map<String, Object> hub = map(services, "hub", "environment");
        String realmPath = "/realms/" + str(realm, "realm");
        assertThat(str(hub, "POIMEN_SECURITY_ISSUER"))
                .isEqualTo(str(map(keycloak, "environment"), "KC_HOSTNAME") + realmPath);
        assertThat(str(hub, "POIMEN_SECURITY_JWKSETURI"))
                .isEqualTo("http://keycloak:8080" + realmPath + "/protocol/openid-connect/certs");

        Map<String, Object> ui = client(realm, "poimen-memory");
        assertThat(ui).containsEntry("publicClient", true).containsEntry("standardFlowEnabled", true);
        assertThat(str(ui, "attributes", "pkce.code.challenge.method")).isEqualTo("S256");
        String hubPort = list(services, "hub", "ports").get(0).toString().split(":")[1];
        assertThat(list(ui, "redirectUris")).contains("http://127.0.0.1:" + hubPort + "/login-callback.html");
        Map<String, Object> agents = client(realm, "poimen-agent");
        assertThat(agents).containsEntry("publicClient", false).containsEntry("serviceAccountsEnabled", true)
                .containsEntry("standardFlowEnabled", false);

        // every client's tokens carry the hub's audience, and groups (plain names) and roles under the claim names of
        // policies/roles.yaml
        Map<String, Object> claims;
        try (var r = Files.newBufferedReader(Path.of("policies/roles.yaml"))) {
            claims = new org.yaml.snakeyaml.Yaml().load(r);
        }
        for (Map<String, Object> client : List.of(ui, agents)) {
            assertThat(str(mapper(client, "oidc-audience-mapper"), "config", "included.custom.audience"))
                    .isEqualTo(str(hub, "POIMEN_SECURITY_AUDIENCE"));
            Map<String, Object> groups = mapper(client, "oidc-group-membership-mapper");
            assertThat(str(groups, "config", "claim.name")).isEqualTo(str(claims, "groups_claim"));
            assertThat(str(groups, "config", "full.path")).isEqualTo("false");
            assertThat(str(mapper(client, "oidc-usermodel-realm-role-mapper"), "config", "claim.name"))
                    .isEqualTo(str(claims, "roles_claim"));
        }
    }

    private static Map<String, Object> client(Map<String, Object> realm, String clientId) {
        return maps(realm, "clients").stream().filter(c -> clientId.equals(c.get("clientId"))).findFirst()
                .orElseThrow(() -> new AssertionError("no client " + clientId + " in the realm file"));
    }

    private static Map<String, Object> mapper(Map<String, Object> client, String type) {
        return maps(client, "protocolMappers").stream().filter(m -> type.equals(m.get("protocolMapper"))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " on client " + client.get("clientId")));
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
