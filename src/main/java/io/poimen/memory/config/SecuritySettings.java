package io.poimen.memory.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code poimen.security.*}.
 *
 * @param mode       {@code none} (no authentication; loopback only) or {@code oidc} (bearer JWT required)
 * @param issuerUri  OIDC issuer; its discovery document gives the JWKS URI (and is the expected {@code iss})
 * @param jwkSetUri  explicit JWKS URI, used with {@link #issuer} instead of discovery
 * @param issuer     expected {@code iss} when {@link #jwkSetUri} is set (defaults to {@link #issuerUri})
 * @param audience   expected {@code aud} (default {@code poimen-memory})
 * @param clockSkew  tolerance for {@code exp} and {@code nbf} (default 30 s)
 */
@ConfigurationProperties("poimen.security")
public record SecuritySettings(String mode, String issuerUri, String jwkSetUri, String issuer, String audience,
                               Duration clockSkew) {
    public static final String NONE = "none";
    public static final String OIDC = "oidc";

    public SecuritySettings {
        mode = mode == null || mode.isBlank() ? NONE : mode.trim().toLowerCase(java.util.Locale.ROOT);
        issuerUri = blankToNull(issuerUri);
        jwkSetUri = blankToNull(jwkSetUri);
        issuer = blankToNull(issuer) != null ? issuer.trim() : issuerUri;
        audience = audience == null || audience.isBlank() ? "poimen-memory" : audience.trim();
        clockSkew = clockSkew != null ? clockSkew : Duration.ofSeconds(30);
    }

    public boolean oidc() {
        return OIDC.equals(mode);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
