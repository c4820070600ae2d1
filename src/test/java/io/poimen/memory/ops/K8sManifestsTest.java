package io.poimen.memory.ops;

import static io.poimen.memory.ops.Y.at;
import static io.poimen.memory.ops.Y.list;
import static io.poimen.memory.ops.Y.map;
import static io.poimen.memory.ops.Y.maps;
import static io.poimen.memory.ops.Y.named;
import static io.poimen.memory.ops.Y.str;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Invariants of k8s/: what an operator relies on when applying an overlay. */
class K8sManifestsTest {
    private static final Map<String, String> HUB_LABELS =
            Map.of("app.kubernetes.io/name", "poimen-memory", "app.kubernetes.io/component", "hub");
    private final Manifests base = Manifests.of(Manifests.BASE);

    @Test
    void everyYamlFileUnderK8sParsesAndEveryObjectIsNamed() throws IOException {
        List<Path> files = Manifests.yamlFiles(Manifests.K8S);
        assertThat(files).hasSizeGreaterThan(10);
        for (Path f : files) {
            List<Map<String, Object>> docs = Manifests.load(f);
            assertThat(docs).as(f.toString()).isNotEmpty();
            for (Map<String, Object> doc : docs) {
                if (doc.containsKey("$jsonPatch")) {
                    maps(doc, "$jsonPatch").forEach(op -> assertThat(op).as(f.toString()).containsKeys("op", "path"));
                } else if (!"Kustomization".equals(doc.get("kind"))) {
                    assertThat(doc).as(f.toString()).containsKeys("apiVersion", "kind");
                    assertThat(str(doc, "metadata", "name")).as(f.toString()).isNotBlank();
                }
            }
        }
    }

    @Test
    void hubRunsTwoReplicasWithActuatorProbesOnTheManagementPort() {
        Map<String, Object> hub = base.get("StatefulSet", "poimen-memory");
        assertThat(at(hub, "spec", "replicas")).isEqualTo(2);
        assertThat(map(hub, "spec", "template", "metadata", "labels")).containsAllEntriesOf(HUB_LABELS);
        Map<String, Object> c = named(maps(hub, "spec", "template", "spec", "containers"), "hub");
        assertThat(str(c, "livenessProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
        assertThat(str(c, "readinessProbe", "httpGet", "path")).isEqualTo("/actuator/health/readiness");
        String probePort = str(c, "readinessProbe", "httpGet", "port");
        Map<String, Object> port = named(maps(c, "ports"), probePort);
        assertThat(String.valueOf(port.get("containerPort"))).isEqualTo(env(hub).get("MANAGEMENT_SERVER_PORT"));
        assertThat(str(c, "livenessProbe", "httpGet", "port")).isEqualTo(probePort);
    }

    @Test
    void prodKeepsTwoHubReplicasAndDevRunsOne() {
        assertThat(effectiveReplicas("prod", "StatefulSet", "poimen-memory")).isEqualTo(2);
        assertThat(effectiveReplicas("prod", "StatefulSet", "memory-db")).isEqualTo(2);
        assertThat(effectiveReplicas("prod", "StatefulSet", "opensearch")).isEqualTo(2);
        assertThat(effectiveReplicas("dev", "StatefulSet", "poimen-memory")).isEqualTo(1);
    }

    @Test
    void everyContainerHasRequestsAndLimits() {
        List<Map<String, Object>> workloads = new ArrayList<>(base.ofKind("Deployment"));
        workloads.addAll(base.ofKind("StatefulSet"));
        assertThat(workloads).hasSize(3);
        for (Map<String, Object> w : workloads) {
            for (String group : List.of("containers", "initContainers")) {
                for (Map<String, Object> c : maps(w, "spec", "template", "spec", group)) {
                    String what = str(w, "metadata", "name") + "/" + c.get("name");
                    assertThat(map(c, "resources", "requests")).as(what).containsKeys("cpu", "memory");
                    assertThat(map(c, "resources", "limits")).as(what).containsKey("memory");
                }
            }
        }
    }

    @Test
    void routesAndPoliciesConfigMapsReachTheDirectoriesTheHubReads() {
        Map<String, Object> hub = base.get("StatefulSet", "poimen-memory");
        Map<String, Object> pod = map(hub, "spec", "template", "spec");
        Map<String, Object> hubContainer = named(maps(pod, "containers"), "hub");
        Map<String, String> env = env(hub);

        // policies: the ConfigMap itself, mounted where poimen.policies.dir points
        Map<String, Object> policiesMount = mountAt(hubContainer, env.get("POIMEN_POLICIES_DIR"));
        assertThat(str(named(maps(pod, "volumes"), str(policiesMount, "name")), "configMap", "name"))
                .isEqualTo("poimen-policies");

        // routes: an emptyDir at poimen.routes-dir, filled from the ConfigMap by the seed and sync containers
        Map<String, Object> routesMount = mountAt(hubContainer, env.get("POIMEN_ROUTES_DIR"));
        String routesVolume = str(routesMount, "name");
        assertThat(named(maps(pod, "volumes"), routesVolume)).containsKey("emptyDir");
        String cmVolume = maps(pod, "volumes").stream()
                .filter(v -> "poimen-routes".equals(str(v, "configMap", "name"))).findFirst()
                .map(v -> str(v, "name")).orElseThrow();
        for (Map<String, Object> copier : List.of(named(maps(pod, "initContainers"), "route-seed"),
                named(maps(pod, "containers"), "route-sync"))) {
            List<String> mounted = maps(copier, "volumeMounts").stream().map(m -> str(m, "name")).toList();
            assertThat(mounted).as(str(copier, "name")).contains(routesVolume, cmVolume);
            assertThat(mountAt(copier, env.get("POIMEN_ROUTES_DIR"))).containsEntry("name", routesVolume);
        }
        assertThat(base.find("ConfigMap", "poimen-routes")).isPresent();
        assertThat(base.find("ConfigMap", "poimen-policies")).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"routes:poimen-routes:.camel.yaml", "policies:poimen-policies:.yaml"})
    void configMapsCarryExactlyTheFilesOfTheRepository(String spec) throws IOException {
        String[] s = spec.split(":");
        Map<String, Object> data = map(base.get("ConfigMap", s[1]), "data");
        Map<String, String> files = new java.util.TreeMap<>();
        try (Stream<Path> dir = Files.list(Path.of(s[0]))) {
            for (Path p : dir.filter(p -> p.getFileName().toString().endsWith(s[2])).toList()) {
                files.put(p.getFileName().toString(), Files.readString(p));
            }
        }
        assertThat(files).isNotEmpty();
        assertThat(data).as("%s differs from %s/: run scripts/k8s-configmaps.sh", s[1], s[0])
                .containsExactlyInAnyOrderEntriesOf(files);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory-db", "opensearch"})
    void storesAreStatefulSetsOfTwoWithVolumeClaimsAndAHeadlessService(String name) {
        Map<String, Object> sts = base.get("StatefulSet", name);
        assertThat(at(sts, "spec", "replicas")).isEqualTo(2);
        List<Map<String, Object>> claims = maps(sts, "spec", "volumeClaimTemplates");
        assertThat(claims).isNotEmpty();
        for (Map<String, Object> claim : claims) {
            assertThat(str(claim, "spec", "resources", "requests", "storage")).matches("\\d+Gi");
            Map<String, Object> c = maps(sts, "spec", "template", "spec", "containers").get(0);
            assertThat(maps(c, "volumeMounts")).anyMatch(m -> str(claim, "metadata", "name").equals(m.get("name")));
        }
        Map<String, Object> headless = base.get("Service", str(sts, "spec", "serviceName"));
        assertThat(str(headless, "spec", "clusterIP")).isEqualTo("None");
    }

    @Test
    void postgresRunsPgvectorAndTheHubTalksToThePrimary() {
        Map<String, Object> sts = base.get("StatefulSet", "memory-db");
        assertThat(str(maps(sts, "spec", "template", "spec", "containers").get(0), "image"))
                .isEqualTo("pgvector/pgvector:pg15");
        String host = URI.create(env(base.get("StatefulSet", "poimen-memory")).get("POIMEN_DB_URL")
                .substring("jdbc:".length())).getHost();
        Map<String, Object> primary = base.get("Service", host);
        assertThat(map(primary, "spec", "selector"))
                .containsEntry("statefulset.kubernetes.io/pod-name", "memory-db-0");
    }

    @Test
    void openSearchNodesDiscoverEachOtherAndTheHubUsesTheClientService() {
        Map<String, Object> sts = base.get("StatefulSet", "opensearch");
        Map<String, String> env = new java.util.HashMap<>();
        maps(maps(sts, "spec", "template", "spec", "containers").get(0), "env")
                .forEach(e -> env.put(str(e, "name"), str(e, "value")));
        String service = str(sts, "spec", "serviceName");
        assertThat(env.get("discovery.seed_hosts").split(","))
                .containsExactlyInAnyOrder("opensearch-0." + service, "opensearch-1." + service);
        assertThat(env.get("cluster.initial_cluster_manager_nodes").split(","))
                .containsExactlyInAnyOrder("opensearch-0", "opensearch-1");
        String host = URI.create(env(base.get("StatefulSet", "poimen-memory")).get("POIMEN_OPENSEARCH_URL")).getHost();
        assertThat(map(base.get("Service", host), "spec", "selector"))
                .containsEntry("app.kubernetes.io/name", "opensearch");
    }

    @ParameterizedTest
    @ValueSource(strings = {"opensearch:9200", "memory-db:5432"})
    void onlyTheHubReachesTheStoresClientPort(String spec) {
        String app = spec.split(":")[0];
        int port = Integer.parseInt(spec.split(":")[1]);
        List<Map<String, Object>> policies = base.ofKind("NetworkPolicy").stream()
                .filter(p -> app.equals(str(p, "spec", "podSelector", "matchLabels", "app.kubernetes.io/name")))
                .toList();
        assertThat(policies).isNotEmpty();
        boolean hubAllowed = false;
        for (Map<String, Object> p : policies) {
            assertThat(list(p, "spec", "policyTypes")).contains("Ingress");
            for (Map<String, Object> rule : maps(p, "spec", "ingress")) {
                boolean coversPort = maps(rule, "ports").isEmpty()
                        || maps(rule, "ports").stream().anyMatch(x -> Integer.valueOf(port).equals(x.get("port")));
                if (!coversPort) {
                    continue;
                }
                List<Map<String, Object>> from = maps(rule, "from");
                assertThat(from).as("a rule without 'from' admits every pod").isNotEmpty();
                for (Map<String, Object> peer : from) {
                    assertThat(peer).as("no namespace or IP peers on the client port").containsOnlyKeys("podSelector");
                    Map<String, Object> labels = map(peer, "podSelector", "matchLabels");
                    boolean hub = HUB_LABELS.entrySet().containsAll(labels.entrySet()) && !labels.isEmpty();
                    boolean self = app.equals(labels.get("app.kubernetes.io/name"));
                    assertThat(hub || self).as("peer %s", labels).isTrue();
                    hubAllowed |= hub;
                }
            }
        }
        assertThat(hubAllowed).isTrue();
        // the peers the policy names are the hub's pods
        Map<String, Object> hubPodLabels = map(base.get("StatefulSet", "poimen-memory"),
                "spec", "template", "metadata", "labels");
        assertThat(hubPodLabels).containsAllEntriesOf(HUB_LABELS);
    }

    @Test
    void ingressTerminatesTlsForEveryHostAndRoutesToAnExistingServicePort() {
        Map<String, Object> ingress = base.get("Ingress", "poimen-memory");
        List<Map<String, Object>> tls = maps(ingress, "spec", "tls");
        assertThat(tls).isNotEmpty();
        Set<Object> tlsHosts = new HashSet<>();
        tls.forEach(t -> {
            assertThat(str(t, "secretName")).isNotBlank();
            tlsHosts.addAll(list(t, "hosts"));
        });
        for (Map<String, Object> rule : maps(ingress, "spec", "rules")) {
            assertThat(tlsHosts).contains(rule.get("host"));
            for (Map<String, Object> path : maps(rule, "http", "paths")) {
                Map<String, Object> svc = base.get("Service", str(path, "backend", "service", "name"));
                String portName = str(path, "backend", "service", "port", "name");
                assertThat(maps(svc, "spec", "ports")).anyMatch(p -> portName.equals(p.get("name")));
            }
        }
    }

    @Test
    void everyReferencedSecretConfigMapAndKeyExists() {
        List<String> problems = new ArrayList<>();
        for (Map<String, Object> w : Stream.concat(base.ofKind("Deployment").stream(),
                base.ofKind("StatefulSet").stream()).toList()) {
            Map<String, Object> pod = map(w, "spec", "template", "spec");
            List<Map<String, Object>> containers = new ArrayList<>(maps(pod, "containers"));
            containers.addAll(maps(pod, "initContainers"));
            for (Map<String, Object> c : containers) {
                for (Map<String, Object> from : maps(c, "envFrom")) {
                    check(problems, "Secret", str(from, "secretRef", "name"), null);
                    check(problems, "ConfigMap", str(from, "configMapRef", "name"), null);
                }
                for (Map<String, Object> e : maps(c, "env")) {
                    check(problems, "Secret", str(e, "valueFrom", "secretKeyRef", "name"),
                            str(e, "valueFrom", "secretKeyRef", "key"));
                    check(problems, "ConfigMap", str(e, "valueFrom", "configMapKeyRef", "name"),
                            str(e, "valueFrom", "configMapKeyRef", "key"));
                }
            }
            for (Map<String, Object> v : maps(pod, "volumes")) {
                check(problems, "ConfigMap", str(v, "configMap", "name"), null);
                check(problems, "Secret", str(v, "secret", "secretName"), null);
                for (Map<String, Object> item : maps(v, "configMap", "items")) {
                    check(problems, "ConfigMap", str(v, "configMap", "name"), str(item, "key"));
                }
            }
        }
        assertThat(problems).isEmpty();
        Map<String, Object> secrets = base.get("Secret", "poimen-secrets");
        assertThat(map(secrets, "stringData")).containsKeys("POIMEN_WEBHOOK_SECRET", "POIMEN_FORGEJO_TOKEN",
                "POIMEN_DB_PASSWORD");
        assertThat(map(secrets, "stringData").values()).allMatch(v -> v.toString().startsWith("change-me"));
    }

    @Test
    void everyServiceSelectsPodsOfSomeWorkload() {
        List<Map<String, Object>> templates = Stream.concat(base.ofKind("Deployment").stream(),
                base.ofKind("StatefulSet").stream()).toList();
        for (Map<String, Object> svc : base.ofKind("Service")) {
            Map<String, Object> selector = new java.util.HashMap<>(map(svc, "spec", "selector"));
            selector.remove("statefulset.kubernetes.io/pod-name");
            assertThat(templates).as(str(svc, "metadata", "name")).anyMatch(w ->
                    map(w, "spec", "template", "metadata", "labels").entrySet().containsAll(selector.entrySet()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"k8s/base", "k8s/overlays/dev", "k8s/overlays/prod"})
    void kustomizationsReferenceFilesThatExistAndPatchObjectsOfTheBase(String dir) {
        Path root = Path.of(dir);
        Map<String, Object> k = Manifests.load(root.resolve("kustomization.yaml")).get(0);
        List<Object> resources = list(k, "resources");
        assertThat(resources).isNotEmpty();
        for (Object r : resources) {
            Path p = root.resolve(r.toString()).normalize();
            assertThat(Files.exists(p)).as("%s lists %s", dir, r).isTrue();
            if (Files.isDirectory(p)) {
                assertThat(p.resolve("kustomization.yaml")).exists();
            }
        }
        for (Map<String, Object> patch : maps(k, "patches")) {
            Path p = root.resolve(str(patch, "path"));
            assertThat(p).exists();
            if (patch.containsKey("target")) {
                assertThat(base.find(str(patch, "target", "kind"), str(patch, "target", "name"))).isPresent();
            } else {
                for (Map<String, Object> doc : Manifests.load(p)) {
                    assertThat(base.find(str(doc, "kind"), str(doc, "metadata", "name")))
                            .as("%s patches %s %s", p, doc.get("kind"), str(doc, "metadata", "name")).isPresent();
                }
            }
        }
    }

    /** Each replica allows limit / POIMEN_LIMITS_REPLICAS: all hubs of an overlay together allow the limit. */
    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void theLimitShareOfEachOverlayIsItsNumberOfHubReplicas(String overlay) {
        String replicas = env(base.get("StatefulSet", "poimen-memory")).get("POIMEN_LIMITS_REPLICAS");
        Path root = Path.of("k8s/overlays", overlay);
        for (Map<String, Object> patch : maps(Manifests.load(root.resolve("kustomization.yaml")).get(0), "patches")) {
            for (Map<String, Object> doc : Manifests.load(root.resolve(str(patch, "path")))) {
                if ("ConfigMap".equals(doc.get("kind")) && "poimen-env".equals(str(doc, "metadata", "name"))
                        && str(doc, "data", "POIMEN_LIMITS_REPLICAS") != null) {
                    replicas = str(doc, "data", "POIMEN_LIMITS_REPLICAS");
                }
            }
        }
        assertThat(replicas).isEqualTo(String.valueOf(effectiveReplicas(overlay, "StatefulSet", "poimen-memory")));
    }

    @Test
    void devKeepsOidcOn() {
        Map<String, Object> patch = Manifests.load(Path.of("k8s/overlays/dev/env-dev.yaml")).get(0);
        assertThat(str(patch, "data", "POIMEN_SECURITY_MODE")).isEqualTo("oidc");
        assertThat(str(patch, "data", "POIMEN_SECURITY_ISSUERURI")).startsWith("https://");
        assertThat(env(base.get("StatefulSet", "poimen-memory"))).containsEntry("POIMEN_SECURITY_MODE", "oidc");
    }

    @Test
    void hubPodsMayCreateAndRenewTheWriterLeaseAndNothingElse() {
        Map<String, Object> hub = base.get("StatefulSet", "poimen-memory");
        String account = str(hub, "spec", "template", "spec", "serviceAccountName");
        assertThat(base.find("ServiceAccount", account)).as("service account " + account).isPresent();
        assertThat(env(hub)).containsEntry("POIMEN_CLUSTER_SERVICE", "kubernetes");
        Map<String, Object> container = named(maps(hub, "spec", "template", "spec", "containers"), "hub");
        assertThat(maps(container, "env")).as("pod name as the replica id")
                .anyMatch(e -> "POIMEN_CLUSTER_NODEID".equals(e.get("name"))
                        && "metadata.name".equals(str(e, "valueFrom", "fieldRef", "fieldPath")));

        Map<String, Object> binding = base.ofKind("RoleBinding").stream()
                .filter(b -> maps(b, "subjects").stream().anyMatch(sub -> "ServiceAccount".equals(sub.get("kind"))
                        && account.equals(sub.get("name")))).findFirst().orElseThrow();
        assertThat(str(binding, "roleRef", "kind")).isEqualTo("Role");
        Map<String, Object> role = base.get("Role", str(binding, "roleRef", "name"));
        List<Map<String, Object>> rules = maps(role, "rules");
        assertThat(rules).anySatisfy(r -> {
            assertThat(strings(r, "apiGroups")).containsExactly("coordination.k8s.io");
            assertThat(strings(r, "resources")).containsExactly("leases");
            assertThat(strings(r, "verbs")).contains("get", "create", "update");
        });
        // no wildcard and no write access beyond the Lease
        for (Map<String, Object> r : rules) {
            assertThat(strings(r, "verbs")).doesNotContain("*", "delete");
            assertThat(strings(r, "resources")).doesNotContain("*", "secrets");
            if (!(strings(r, "resources")).contains("leases")) {
                assertThat(strings(r, "verbs")).containsOnly("get", "list", "watch");
            }
        }
    }

    @Test
    void theHubDataDirectoryIsAPersistentClaimNotAnEmptyDir() {
        Map<String, Object> hub = base.get("StatefulSet", "poimen-memory");
        Map<String, Object> pod = map(hub, "spec", "template", "spec");
        Map<String, Object> container = named(maps(pod, "containers"), "hub");
        // poimen.data.dir: the prod default ./data, resolved against the image's working directory /app
        Map<String, Object> dataMount = mountAt(container, "/app/data");
        String volume = str(dataMount, "name");
        assertThat(maps(pod, "volumes")).as("data must not be a pod volume (emptyDir dies with the pod)")
                .noneMatch(v -> volume.equals(v.get("name")));
        Map<String, Object> claim = maps(hub, "spec", "volumeClaimTemplates").stream()
                .filter(c -> volume.equals(str(c, "metadata", "name"))).findFirst().orElseThrow();
        assertThat(str(claim, "spec", "resources", "requests", "storage")).matches("\\d+Gi");
        Map<String, Object> headless = base.get("Service", str(hub, "spec", "serviceName"));
        assertThat(str(headless, "spec", "clusterIP")).isEqualTo("None");
    }

    private static List<String> strings(Map<String, Object> m, String key) {
        return ((List<?>) m.get(key)).stream().map(String::valueOf).toList();
    }

    private void check(List<String> problems, String kind, String name, String key) {
        if (name == null) {
            return;
        }
        var obj = base.find(kind, name);
        if (obj.isEmpty()) {
            problems.add(kind + " " + name + " is referenced but not defined");
        } else if (key != null && !map(obj.get(), "data").containsKey(key)
                && !map(obj.get(), "stringData").containsKey(key)) {
            problems.add(kind + " " + name + " has no key " + key);
        }
    }

    /** The hub's environment: every ConfigMap it takes envFrom, then its own env entries. */
    private Map<String, String> env(Map<String, Object> deployment) {
        Map<String, String> env = new java.util.HashMap<>();
        Map<String, Object> c = maps(deployment, "spec", "template", "spec", "containers").get(0);
        for (Map<String, Object> from : maps(c, "envFrom")) {
            String cm = str(from, "configMapRef", "name");
            if (cm != null) {
                map(base.get("ConfigMap", cm), "data").forEach((k, v) -> env.put(k, String.valueOf(v)));
            }
        }
        maps(c, "env").forEach(e -> env.put(str(e, "name"), str(e, "value")));
        return env;
    }

    private static Map<String, Object> mountAt(Map<String, Object> container, String path) {
        assertThat(path).as("directory setting").isNotBlank();
        return maps(container, "volumeMounts").stream().filter(m -> path.equals(m.get("mountPath"))).findFirst()
                .orElseThrow(() -> new AssertionError(container.get("name") + " mounts nothing at " + path));
    }

    private int effectiveReplicas(String overlay, String kind, String name) {
        Path root = Path.of("k8s/overlays", overlay);
        Integer replicas = (Integer) at(base.get(kind, name), "spec", "replicas");
        for (Map<String, Object> patch : maps(Manifests.load(root.resolve("kustomization.yaml")).get(0), "patches")) {
            if (patch.containsKey("target")) {
                continue;
            }
            for (Map<String, Object> doc : Manifests.load(root.resolve(str(patch, "path")))) {
                if (kind.equals(doc.get("kind")) && name.equals(str(doc, "metadata", "name"))
                        && at(doc, "spec", "replicas") != null) {
                    replicas = (Integer) at(doc, "spec", "replicas");
                }
            }
        }
        return replicas;
    }
}
