package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Bearer tokens the issuer signed but that the hub must still refuse, in oidc mode over HTTP (security test, items
 * 10 and 11a): a token without a subject (or with a blank one) names nobody and is a 401 JSON answer on every
 * surface, with nothing audited; tokens with made-up key ids make the hub fetch the issuer's JWKS at most once per
 * refetch interval, not once each.
 */
class TokenChecksOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();

    @Autowired JdbcTemplate jdbc;

    /** Signed by the issuer with its own key; {@code sub} as given (absent when null). */
    static String issuerToken(Object sub) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("aud", List.of("poimen-memory"));
        claims.put("groups", List.of("ml-team"));
        claims.put("roles", List.of("editor"));
        if (sub != null) {
            claims.put("sub", sub);
        }
        return OAUTH.anyToken(OAUTH.issuerUrl(ISSUER), claims).serialize();
    }

    HttpResponse<String> call(String token, String method, String path, String body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + token)
                .header("Accept", path.equals("/mcp") ? "application/json, text/event-stream" : "*/*");
        if (body != null) {
            r.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            r.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aTokenWithoutASubjectIsA401OnEverySurfaceAndNothingIsAudited() throws Exception {
        String[][] surfaces = {
                {"GET", "/memory/vault?project=poimen", null},
                {"GET", "/memory/vault/file?path=projects/poimen/index.md", null},
                {"POST", "/memory/query", "{\"project\":\"poimen\",\"query\":\"kubectl pods\",\"agent_id\":\"a\"}"},
                {"POST", "/memory/grc/draft", "{\"document_path\":\"projects/poimen/x.md\",\"content\":\"# x\","
                        + "\"message\":\"m\"}"},
                {"POST", "/memory/agents/events", "{\"agent_id\":\"a\",\"type\":\"agent_started\"}"},
                {"GET", "/memory/agents/logs?agent_id=a", null},
                {"GET", "/memory/agents/stream", null},
                {"POST", "/mcp", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
                        + "\"version\":\"1\"}}}"}};
        assertThat(call(bob(), "GET", "/memory/vault?project=ml-training", null).statusCode()).isEqualTo(200);
        Integer audited = jdbc.queryForObject("select count(*) from rbac_audit_log", Integer.class);
        int tried = 0;
        for (Object sub : new Object[] {null, "", "   "}) {
            String token = issuerToken(sub);
            assertThat(SignedJWT.parse(token).getJWTClaimsSet().getClaim("sub")).isEqualTo(sub);
            for (String[] s : surfaces) {
                HttpResponse<String> r = call(token, s[0], s[1], s[2]);
                String what = "sub " + (sub == null ? "absent" : "'" + sub + "'") + ": " + s[0] + " " + s[1];
                assertThat(r.statusCode()).as(what + " → " + r.body()).isEqualTo(401);
                assertThat(JSON.readTree(r.body()).path("error").asText()).as(what).isEqualTo("unauthorized");
                assertThat(r.headers().firstValue("WWW-Authenticate")).as(what).hasValueSatisfying(
                        h -> assertThat(h).contains("invalid_token"));
                tried++;
            }
        }
        assertThat(tried).isEqualTo(3 * surfaces.length);
        assertThat(jdbc.queryForObject("select count(*) from rbac_audit_log", Integer.class))
                .as("no decision audited without a user").isEqualTo(audited);
    }

    @Test
    void tokensWithMadeUpKeyIdsFetchTheIssuersJwksAtMostOncePerInterval() throws Exception {
        assertThat(call(bob(), "GET", "/memory/vault?project=ml-training", null).statusCode()).isEqualTo(200);
        jwksFetches();
        RSAKey stranger = new RSAKeyGenerator(2048).generate();
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(OAUTH.issuerUrl(ISSUER).toString()).subject("mallory")
                .audience("poimen-memory").issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(600)))
                .claim("groups", List.of("ml-team")).build();
        for (int i = 0; i < 30; i++) {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(UUID.randomUUID().toString())
                    .build(), claims);
            jwt.sign(new RSASSASigner(stranger));
            HttpResponse<String> r = call(jwt.serialize(), "GET", "/memory/vault?project=poimen", null);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
        }
        int fetches = jwksFetches();
        System.out.println("JWKS fetches for 30 tokens with made-up key ids: " + fetches);
        assertThat(fetches).as("JWKS fetches for 30 made-up key ids").isLessThanOrEqualTo(1);
        assertThat(call(bob(), "GET", "/memory/vault?project=ml-training", null).statusCode()).isEqualTo(200);
    }

    /** The JWKS requests the issuer got since the last call (mock-oauth2-server records every request). */
    static int jwksFetches() {
        int n = 0;
        while (true) {
            RecordedRequest r;
            try {
                r = OAUTH.takeRequest(200, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                return n; // "no request found in queue within timeout": all taken
            }
            if (r.getPath() != null && r.getPath().contains("jwks")) {
                n++;
            }
        }
    }
}
