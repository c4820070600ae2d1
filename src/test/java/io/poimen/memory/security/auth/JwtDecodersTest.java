package io.poimen.memory.security.auth;

import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.RoleModel;
import io.poimen.memory.config.SecuritySettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
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
 * the unit level (a token without a subject included), the 30 s skew, key rotation without a restart, and JWKS
 * fetches for unknown key ids at most once per refetch interval (on a clock the test moves).
 */
class JwtDecodersTest {
    static final String ISSUER = "https://issuer.test/application/o/poimen/";
    HttpServer server;
    final List<JWK> published = new ArrayList<>();
    final AtomicInteger jwksFetches = new AtomicInteger();
    volatile boolean jwksDown;
    final MovingClock clock = new MovingClock();
    RSAKey rsa;
    JwtDecoder decoder;

    /** The decoder's clock: the JWKS cache's time to live and refetch interval run on it. */
    static final class MovingClock extends Clock {
        Instant now = Instant.now();

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @BeforeEach
    void jwksEndpoint() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        published.add(rsa);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/jwks", ex -> {
            jwksFetches.incrementAndGet();
            if (jwksDown) {
                ex.sendResponseHeaders(503, -1);
                ex.close();
                return;
            }
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
        decoder = JwtDecoders.build(new SecuritySettings("oidc", null,
                "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks", ISSUER, "poimen-memory",
                Duration.ofSeconds(30), Duration.ofMinutes(5), Duration.ofSeconds(30)), clock);
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
        clock.now = clock.now.plusSeconds(31); // a new kid is fetched once the refetch interval is over
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
        String rotated = rs256(next, claims(c -> c.subject("after-rotation")));
        clock.now = clock.now.plusSeconds(31);
        assertThat(decoder.decode(rotated).getSubject()).isEqualTo("after-rotation");
        assertThat(jwksFetches.get()).as("the unknown kid made the decoder refetch the JWKS").isEqualTo(fetchesBefore + 1);
    }

    @Test
    void tokensWithUnknownKeyIdsFetchTheJwksAtMostOncePerRefetchInterval() throws Exception {
        assertThat(decoder.decode(rs256(rsa, claims(c -> { }))).getSubject()).isEqualTo("charlie");
        assertThat(jwksFetches.get()).isEqualTo(1);
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("stranger").generate();
        for (int round = 1; round <= 3; round++) {
            for (int i = 0; i < 30; i++) {
                RSAKey made = new RSAKey.Builder(stranger).keyID(java.util.UUID.randomUUID().toString()).build();
                assertRejected(rs256(made, claims(c -> { })));
                clock.now = clock.now.plusMillis(100);
            }
            assertThat(jwksFetches.get()).as("round %d: 30 unknown kids within the interval", round)
                    .isEqualTo(round);
            assertThat(decoder.decode(rs256(rsa, claims(c -> { }))).getSubject()).isEqualTo("charlie");
            clock.now = clock.now.plusSeconds(30);
        }
        // a key rotated in is taken by the first token that uses it once the interval is over
        RSAKey next = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
        synchronized (published) {
            published.add(next);
        }
        assertThat(decoder.decode(rs256(next, claims(c -> c.subject("rotated")))).getSubject()).isEqualTo("rotated");
        assertThat(jwksFetches.get()).isEqualTo(4);
    }

    @Test
    void theJwksIsFetchedAgainAfterItsTimeToLiveAndAFailedFetchKeepsTheKeysBefore() throws Exception {
        String token = rs256(rsa, claims(c -> { }));
        decoder.decode(token);
        clock.now = clock.now.plusSeconds(299);
        decoder.decode(token);
        assertThat(jwksFetches.get()).as("within the time to live").isEqualTo(1);
        clock.now = clock.now.plusSeconds(2);
        decoder.decode(token);
        assertThat(jwksFetches.get()).as("after it").isEqualTo(2);
        jwksDown = true;
        clock.now = clock.now.plusSeconds(301);
        assertThat(decoder.decode(token).getSubject()).as("the issuer is down: the keys before").isEqualTo("charlie");
        assertThat(jwksFetches.get()).isEqualTo(3);
        decoder.decode(token);
        assertThat(jwksFetches.get()).as("tried again only after the interval").isEqualTo(3);
        jwksDown = false;
        clock.now = clock.now.plusSeconds(31);
        decoder.decode(token);
        assertThat(jwksFetches.get()).isEqualTo(4);
    }

    @Test
    void theKeysAreKeptForTheCacheLifetimeThenAKeyTheIssuerRemovedIsRefused() throws Exception {
        String signedWithTheOldKey = rs256(rsa, claims(c -> { }));
        for (int i = 0; i < 3; i++) {
            assertThat(decoder.decode(signedWithTheOldKey).getSubject()).isEqualTo("charlie");
        }
        assertThat(jwksFetches.get()).as("one fetch for three tokens: the JWKS is cached").isEqualTo(1);

        synchronized (published) {
            published.clear();
            published.add(new RSAKeyGenerator(2048).keyID("rsa-2").generate());
        }
        // the old kid is still cached, so nothing makes the decoder look again but the end of the cache lifetime
        clock.now = clock.now.plusSeconds(299);
        assertThat(decoder.decode(signedWithTheOldKey).getSubject()).isEqualTo("charlie");
        clock.now = clock.now.plusSeconds(2);
        assertThatThrownBy(() -> decoder.decode(signedWithTheOldKey)).isInstanceOf(JwtException.class);
        assertThat(jwksFetches.get()).isEqualTo(2);
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
        assertRejected(rs256(rsa, claims(c -> c.subject(null))));                // no subject: nobody
        assertRejected(rs256(rsa, claims(c -> c.subject(""))));
        assertRejected(rs256(rsa, claims(c -> c.subject("   "))));
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
