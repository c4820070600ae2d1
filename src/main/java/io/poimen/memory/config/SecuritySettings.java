package io.poimen.memory.config;

import java.time.Duration;
import java.util.Locale;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code poimen.security.*}.
 *
 * @param mode       {@code none} (no authentication; loopback only) or {@code oidc} (bearer JWT required)
 * @param issuer     expected {@code iss} when {@link #jwkSetUri} is set (defaults to {@link #issuerUri})
 * @param issuerUri  OIDC issuer; its discovery document gives the JWKS URI (and is the expected {@code iss})
 * @param jwkSetUri  explicit JWKS URI, used with {@link #issuer} instead of discovery
 * @param audience   expected {@code aud}
 * @param clockSkew  tolerance for {@code exp} and {@code nbf}
 * @param jwksCacheTtl        how long the issuer's JWKS is kept before it is fetched again
 * @param jwksRefetchInterval a token with an unknown {@code kid} fetches the JWKS again at most this often
 */
// issuer's @param comes before issuerUri's: the metadata processor takes the first @param line starting with the name
public record SecuritySettings(@DefaultValue("none") String mode, String issuerUri, String jwkSetUri, String issuer,
                               @DefaultValue("poimen-memory") String audience,
                               @DefaultValue("30s") Duration clockSkew, @DefaultValue("5m") Duration jwksCacheTtl,
                               @DefaultValue("30s") Duration jwksRefetchInterval) {
    public static final String NONE = "none";
    public static final String OIDC = "oidc";

    public SecuritySettings {
        mode = mode == null ? "" : mode.trim().toLowerCase(Locale.ROOT); // blank: SecurityModeGuard refuses it
        issuerUri = blankToNull(issuerUri);
        jwkSetUri = blankToNull(jwkSetUri);
        issuer = blankToNull(issuer) != null ? issuer.trim() : issuerUri;
        audience = audience.trim();
        if (jwksRefetchInterval.isNegative() || jwksCacheTtl.compareTo(jwksRefetchInterval) < 0) {
            throw new IllegalArgumentException("poimen.security.jwks-refetch-interval must be between 0 and "
                    + "poimen.security.jwks-cache-ttl");
        }
        if (audience.isEmpty()) {
            throw new IllegalArgumentException("poimen.security.audience is blank: every token would be refused");
        }
    }

    public boolean oidc() {
        return OIDC.equals(mode);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
