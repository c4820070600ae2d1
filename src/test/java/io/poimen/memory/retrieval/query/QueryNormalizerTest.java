package io.poimen.memory.retrieval.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.vault.Terms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueryNormalizerTest {
    private final QueryNormalizer normalizer = new QueryNormalizer();

    @Test
    void tagsAndMentionsAreExtractedLowerCasedAndLeftOutOfTheText() {
        NormalizedQuery q = normalizer.normalize("Pod crashes  #K8s #homelab/Cluster @Alice, ask @bob.");

        assertThat(q.tags()).containsExactly("k8s", "homelab/cluster");
        assertThat(q.mentions()).containsExactly("alice", "bob");
        assertThat(q.text()).isEqualTo("Pod crashes , ask");
        assertThat(q.tokens()).containsExactly("Pod", "crashes", "ask");
        assertThat(q.terms()).isEqualTo(Terms.analyze("Pod crashes ask"));
        assertThat(q.terms()).doesNotContain("k8s", "alice");
        assertThat(q.hasFilters()).isTrue();
    }

    @Test
    void thingsThatLookLikeTagsOrMentionsButAreNot() {
        NormalizedQuery q = normalizer.normalize("C# issue #123 mail ops@example.com # heading");

        assertThat(q.tags()).isEmpty();
        assertThat(q.mentions()).isEmpty();
        assertThat(q.text()).contains("ops@example.com").contains("#123").contains("C#");
        assertThat(q.hasFilters()).isFalse();
    }

    @Test
    void repeatedTagsAreKeptOnce() {
        assertThat(normalizer.normalize("#ops #OPS #Ops x").tags()).containsExactly("ops");
    }

    @Test
    void nullIsRejectedAndBlankIsEmpty() {
        assertThatThrownBy(() -> normalizer.normalize(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("query");
        NormalizedQuery blank = normalizer.normalize(" \t\n ");
        assertThat(blank.text()).isEmpty();
        assertThat(blank.tokens()).isEmpty();
        assertThat(blank.terms()).isEmpty();
        assertThat(blank.entities()).isEmpty();
    }

    @Test
    void tokensKeepVersionsAndHyphenatedWordsWhole() {
        assertThat(normalizer.normalize("kube-proxy v1.28.3 on node-2!").tokens())
                .containsExactly("kube-proxy", "v1.28.3", "on", "node-2");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "curl localhost:8080 hangs | 8080",
        "connect to :5432 refused | 5432",
        "psql 10.0.0.7:5432 timeout | 5432",
        "postgres listens on port 5432 | 5432",
        "set port=6443 in kubeconfig | 6443",
        "open 443/tcp on the firewall | 443",
        "the 9090 port is busy | 9090",
        "pod in CrashLoopBackOff | CrashLoopBackOff",
        "container OOMKilled again | OOMKilled",
        "ImagePullBackOff on private registry | ImagePullBackOff",
        "java.lang.NullPointerException in handler | NullPointerException",
        "TypeError: undefined is not a function | TypeError",
        "dig returns NXDOMAIN for the service | NXDOMAIN",
        "upstream says SERVFAIL | SERVFAIL",
        "ECONNREFUSED when calling the hub | ECONNREFUSED",
        "process got SIGKILL | SIGKILL",
        "rustc error E0382 borrow of moved value | E0382",
        "intermittent 5xx from ingress | 5xx",
        "nginx returns 502 bad gateway | 502",
        "404 not found on /memory/query | 404",
        "upgrade to v1.2.3 broke login | v1.2.3",
        "kubectl 1.28 drops the flag | 1.28",
        "pg15 replication lag | pg15",
        "migrate from java17 to java21 | java17",
        "postgres version 15 features | 15",
    })
    void findsEntities(String query, String entity) {
        assertThat(normalizer.normalize(query).entities()).contains(entity);
    }

    @ParameterizedTest(name = "{0} has no entities")
    @CsvSource(delimiter = '|', value = {
        "meeting at 10:30 about the rollout",
        "route 10.0.0.1 via the gateway box",
        "HTTP and DNS basics",
        "sha256 of the utf8 payload",
        "we have 404 pages of docs",
        "what is an Error anyway",
    })
    void ordinaryWordsAreNotEntities(String query) {
        assertThat(normalizer.normalize(query).entities()).isEmpty();
    }

    @Test
    void entitiesAreInOrderWithoutDuplicates() {
        NormalizedQuery q = normalizer.normalize("CrashLoopBackOff on :8080, still CrashLoopBackOff on port 8080");
        assertThat(q.entities()).containsExactly("8080", "CrashLoopBackOff");
    }
}
