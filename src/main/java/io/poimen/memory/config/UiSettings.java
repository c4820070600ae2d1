package io.poimen.memory.config;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the web UI under {@code poimen.ui.*}. In oidc mode the UI logs in with the Authorization Code flow
 * and PKCE against {@link #issuer} (its discovery document), as the public client {@link #clientId} asking for
 * {@link #scopes}; the issuer must put the hub's audience into the access token.
 *
 * @param issuer       issuer URL as the browser reaches it (default: {@code poimen.security.issuer}, which itself
 *                     defaults to {@code poimen.security.issuer-uri})
 * @param clientId     OIDC client id of the UI
 * @param scopes       scopes asked for
 * @param remoteImages true to load images of notes from other hosts (off: a note cannot track its readers)
 */
public record UiSettings(String issuer, @DefaultValue("poimen-memory") String clientId,
                         @DefaultValue("openid profile email") String scopes, boolean remoteImages) {

    public UiSettings {
        issuer = issuer == null || issuer.isBlank() ? null : issuer.trim();
        clientId = clientId.trim();
        scopes = scopes.trim();
    }

    /** The issuer the browser logs in at, or null when login is off (no-auth mode). */
    public String loginIssuer(SecuritySettings security) {
        return !security.oidc() ? null : issuer != null ? issuer : security.issuer();
    }

    /** What {@code GET /memory/ui/config} answers: public facts the UI needs before anyone has logged in. */
    public Map<String, Object> publicConfig(SecuritySettings security) {
        Map<String, Object> out = new LinkedHashMap<>();
        String loginIssuer = loginIssuer(security);
        out.put("auth", loginIssuer != null ? "oidc" : "none");
        if (loginIssuer != null) {
            out.put("issuer", loginIssuer);
            out.put("client_id", clientId);
            out.put("scopes", scopes);
        }
        out.put("remote_images", remoteImages);
        return out;
    }

    /** Scheme, host and port of {@code url}, the form a Content-Security-Policy source takes. */
    public static String origin(String url) {
        URI u = URI.create(url);
        return u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "");
    }
}
