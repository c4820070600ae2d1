package io.poimen.memory.security.auth;

import com.github.benmanes.caffeine.cache.Caffeine;
import io.poimen.memory.config.SecuritySettings;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.springframework.cache.concurrent.ConcurrentMapCache;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.SupplierJwtDecoder;

/**
 * The bearer-token decoder: Nimbus against the issuer's JWKS (from discovery, or an explicit URI), RS256 and ES256
 * only, so {@code alg: none} and HS256 signed with the public key are rejected before any key is tried. The JWKS
 * is kept {@code poimen.security.jwks-cache-ttl}; a token with an unknown {@code kid} fetches it again, at most once
 * per {@code poimen.security.jwks-refetch-interval} ({@link JwksCache}), so the issuer can rotate keys without a
 * restart and made-up key ids cost one fetch per interval. Claims checked: {@code exp} present and not passed,
 * {@code nbf} reached (both with the configured skew), {@code iss} equal to the issuer, {@code aud} containing the
 * audience, and {@code sub} a non-blank string: the caller is its subject (audit rows, drafts, agent ids, sessions),
 * so a token without one names nobody (and all such tokens would share one identity).
 */
public final class JwtDecoders {
    private JwtDecoders() {
    }

    /** Lazy: discovery and the first JWKS fetch happen on the first token, so a slow issuer does not block start. */
    public static JwtDecoder create(SecuritySettings s) {
        return new SupplierJwtDecoder(() -> build(s));
    }

    static NimbusJwtDecoder build(SecuritySettings s) {
        return build(s, Clock.systemUTC());
    }

    static NimbusJwtDecoder build(SecuritySettings s, Clock clock) {
        NimbusJwtDecoder.JwkSetUriJwtDecoderBuilder builder = s.jwkSetUri() != null
                ? NimbusJwtDecoder.withJwkSetUri(s.jwkSetUri())
                : NimbusJwtDecoder.withIssuerLocation(s.issuerUri());
        // the JWKS document expires after jwks-cache-ttl (given a Spring cache, the builder turns off Nimbus' own
        // cache, whose lifetime it does not expose)
        ConcurrentMapCache jwks = new ConcurrentMapCache("jwks",
                Caffeine.newBuilder().expireAfterWrite(s.jwksCacheTtl()).build().asMap(), false);
        NimbusJwtDecoder decoder = builder.cache(jwks).jwsAlgorithms(a -> {
            a.clear();
            a.add(SignatureAlgorithm.RS256);
            a.add(SignatureAlgorithm.ES256);
        }).cache(new JwksCache(s.jwksCacheTtl(), s.jwksRefetchInterval(), clock)).build();
        decoder.setJwtValidator(validator(s));
        return decoder;
    }

    static OAuth2TokenValidator<Jwt> validator(SecuritySettings s) {
        return new DelegatingOAuth2TokenValidator<>(List.of(
                new JwtClaimValidator<Object>(JwtClaimNames.EXP, Objects::nonNull),
                new JwtClaimValidator<Object>(JwtClaimNames.SUB,
                        sub -> sub instanceof String subject && !subject.isBlank()),
                new JwtTimestampValidator(s.clockSkew()),
                new JwtIssuerValidator(s.issuer()),
                new JwtClaimValidator<List<String>>(JwtClaimNames.AUD,
                        aud -> aud != null && aud.contains(s.audience()))));
    }
}
