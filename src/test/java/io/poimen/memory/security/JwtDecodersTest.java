package io.poimen.memory.security;

import io.poimen.memory.config.SecuritySettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

/**
 * The decoder against a JWKS endpoint served over real HTTP whose keys the test rotates: every rejection case at
 * the unit level, the 30 s skew, and key rotation without a restart.
 */
class JwtDecodersTest {
    static final String ISSUER = "https://issuer.test/application/o/poimen/";
    HttpServer server;
    final List<JWK> published = new ArrayList<>();
    final AtomicInteger jwksFetches = new AtomicInteger();
    RSAKey rsa;
    JwtDecoder decoder;

    @BeforeEach
    void jwksEndpoint() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        published.add(rsa);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/jwks", ex -> {
            jwksFetches.incrementAndGet();
            byte[] body;
            synchronized (published) {
                body = new JWKSet(new ArrayList<>(published)).toPublicJWKSet().toString().getBytes(StandardCharsets.UTF_8);
            }
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        decoder = decoderKeepingKeys(Duration.ofMinutes(5));
    }

    JwtDecoder decoderKeepingKeys(Duration jwksCacheTtl) {
        return JwtDecoders.create(new SecuritySettings("oidc", null,
                "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks", ISSUER, "poimen-memory",
                Duration.ofSeconds(30), jwksCacheTtl));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    static JWTClaimsSet claims(Consumer<JWTClaimsSet.Builder> change) {
        Instant now = Instant.now();
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder().subject("charlie").issuer(ISSUER)
                .audience("poimen-memory").issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)))
                .claim("groups", List.of("platform-team"));
        change.accept(b);
        return b.build();
    }

    static String rs256(RSAKey key, JWTClaimsSet claims) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    @Test
    void acceptsRs256AndEs256FromTheIssuer() throws Exception {
        assertThat(decoder.decode(rs256(rsa, claims(c -> { }))).getSubject()).isEqualTo("charlie");
        ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        synchronized (published) {
            published.add(ec);
        }
        SignedJWT es = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("ec-1").build(), claims(c -> { }));
        es.sign(new ECDSASigner(ec));
        assertThat(decoder.decode(es.serialize()).getClaimAsStringList("groups")).containsExactly("platform-team");
    }

    @Test
    void aRotatedKeyIsFetchedWithoutRestart() throws Exception {
        assertThat(decoder.decode(rs256(rsa, claims(c -> { }))).getSubject()).isEqualTo("charlie");
        int fetchesBefore = jwksFetches.get();
        RSAKey next = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
        synchronized (published) {
            published.clear();
            published.add(next);
        }
        assertThat(decoder.decode(rs256(next, claims(c -> c.subject("after-rotation")))).getSubject())
                .isEqualTo("after-rotation");
        assertThat(jwksFetches.get()).as("the unknown kid made the decoder refetch the JWKS").isGreaterThan(fetchesBefore);
    }

    @Test
    void theKeysAreKeptForTheCacheLifetimeThenAKeyTheIssuerRemovedIsRefused() throws Exception {
        String signedWithTheOldKey = rs256(rsa, claims(c -> { }));
        for (int i = 0; i < 3; i++) {
            assertThat(decoder.decode(signedWithTheOldKey).getSubject()).isEqualTo("charlie");
        }
        assertThat(jwksFetches.get()).as("one fetch for three tokens: the JWKS is cached").isEqualTo(1);

        JwtDecoder shortLived = decoderKeepingKeys(Duration.ofSeconds(1));
        assertThat(shortLived.decode(signedWithTheOldKey).getSubject()).isEqualTo("charlie");
        synchronized (published) {
            published.clear();
            published.add(new RSAKeyGenerator(2048).keyID("rsa-2").generate());
        }
        // the old kid is still cached, so nothing makes the decoder look again but the end of the cache lifetime
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThatThrownBy(() -> shortLived.decode(signedWithTheOldKey)).isInstanceOf(JwtException.class));
    }

    @Test
    void clockSkewIsThirtySeconds() throws Exception {
        Instant now = Instant.now();
        assertThat(decoder.decode(rs256(rsa, claims(c -> c.issueTime(Date.from(now.minusSeconds(300)))
                .expirationTime(Date.from(now.minusSeconds(10))))))).isNotNull();
        assertThat(decoder.decode(rs256(rsa, claims(c -> c.notBeforeTime(Date.from(now.plusSeconds(10))))))).isNotNull();
        assertRejected(rs256(rsa, claims(c -> c.issueTime(Date.from(now.minusSeconds(300)))
                .expirationTime(Date.from(now.minusSeconds(60))))));
        assertRejected(rs256(rsa, claims(c -> c.notBeforeTime(Date.from(now.plusSeconds(120))))));
    }

    @Test
    void rejectsEveryBadToken() throws Exception {
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        assertRejected(rs256(stranger, claims(c -> { })));                     // wrong signature, same kid
        assertRejected(rs256(rsa, claims(c -> c.issuer("https://evil.test/"))));
        assertRejected(rs256(rsa, claims(c -> c.audience("another-app"))));
        assertRejected(rs256(rsa, claims(c -> c.audience((String) null))));
        assertRejected(rs256(rsa, claims(c -> c.expirationTime(null))));
        assertRejected(new PlainJWT(claims(c -> { })).serialize());              // alg none
        SignedJWT hs = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(), claims(c -> { }));
        hs.sign(new MACSigner(rsa.toRSAPublicKey().getEncoded()));              // HS256 keyed with the public key
        assertRejected(hs.serialize());
        assertRejected("not.a.jwt");
        assertRejected("");
    }

    void assertRejected(String token) {
        assertThatThrownBy(() -> decoder.decode(token)).isInstanceOf(JwtException.class);
    }

    @Test
    void callerClaimsFollowRolesYaml() throws IOException {
        RoleModel model = RoleModel.fromYaml(java.util.Map.of("groups_claim", "realm.groups", "roles_claim", "roles",
                "role_hierarchy", List.of("viewer", "editor", "admin"),
                "role_permissions", java.util.Map.of("viewer", List.of("skill:read"), "editor", List.of("memory:write"))));
        org.springframework.security.oauth2.jwt.Jwt jwt = org.springframework.security.oauth2.jwt.Jwt
                .withTokenValue("t").header("alg", "RS256").subject("bob")
                .claim("realm", java.util.Map.of("groups", List.of("ml-team")))
                .claim("roles", "editor").claim("permissions", List.of("x:y")).claim("preferred_username", "Bob")
                .build();
        Caller bob = new JwtCallerFactory(() -> model).from(jwt);
        assertThat(bob.groups()).containsExactly("ml-team");
        assertThat(bob.roles()).containsExactly("editor");
        assertThat(bob.permissions()).containsExactlyInAnyOrder("x:y", "memory:write", "skill:read");
        assertThat(bob.name()).isEqualTo("Bob");
        assertThat(bob.anonymous()).isFalse();
    }
}
