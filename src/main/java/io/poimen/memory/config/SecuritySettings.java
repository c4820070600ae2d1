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
 * @param jwksCacheTtl how long the issuer's keys are used before they are fetched again: a key the issuer removed is
 *                   refused at the latest this long after (an unknown {@code kid} is fetched at once)
 */
// issuer's @param comes before issuerUri's: the metadata processor takes the first @param line starting with the name
public record SecuritySettings(@DefaultValue("none") String mode, String issuerUri, String jwkSetUri, String issuer,
                               @DefaultValue("poimen-memory") String audience,
                               @DefaultValue("30s") Duration clockSkew,
                               @DefaultValue("5m") Duration jwksCacheTtl) {
    public static final String NONE = "none";
    public static final String OIDC = "oidc";

    public SecuritySettings {
        mode = mode == null ? "" : mode.trim().toLowerCase(Locale.ROOT); // blank: SecurityModeGuard refuses it
        issuerUri = blankToNull(issuerUri);
        jwkSetUri = blankToNull(jwkSetUri);
        issuer = blankToNull(issuer) != null ? issuer.trim() : issuerUri;
        audience = audience.trim();
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
