package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The no-auth mode's Host/Origin allow-list and the JSON-only rule for writes (issue 12 item 5), unit level. */
class RequestGuardsTest {

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "localhost:8080", "LOCALHOST:1", "127.0.0.1", "127.0.0.1:8080",
            "127.255.0.9:65535", "[::1]", "[::1]:8080"})
    void loopbackHostsPass(String host) {
        assertThat(LoopbackOnlyFilter.loopbackHost(host)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.evil.example",
            "0.0.0.0", "10.0.0.1:8080", "[::]:8080", "[::1", "[::1]x", "localhost:80a", "127.0.0.256",
            "localhost:8080@evil", "", "::1"})
    void otherHostsDoNot(String host) {
        assertThat(LoopbackOnlyFilter.loopbackHost(host)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://localhost:8080", "http://127.0.0.1", "https://[::1]:8443"})
    void loopbackOriginsPass(String origin) {
        assertThat(LoopbackOnlyFilter.loopbackOrigin(origin)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "http://evil.example", "file://", "http://user@localhost", "ftp://localhost",
            "http://localhost.evil.example:8080", "not a uri"})
    void otherOriginsDoNot(String origin) {
        assertThat(LoopbackOnlyFilter.loopbackOrigin(origin)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8",
            "application/merge-patch+json"})
    void jsonContentTypesPass(String type) {
        assertThat(JsonWritesFilter.problem(type)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
            "application/json; charset=iso-8859-1", "application/json; charset=nope", "json", "text/json"})
    void otherContentTypesDoNot(String type) {
        assertThat(JsonWritesFilter.problem(type)).isNotNull();
    }
}
