package io.poimen.memory.security.auth;

import io.poimen.memory.config.UiSettings;
import io.poimen.memory.config.SecuritySettings;

/**
 * The {@code Content-Security-Policy} of every response (but an SVG attachment's, {@code AttachmentType#SANDBOX}).
 * Scripts and styles only from the hub itself (no inline script or style attribute), images from the hub,
 * {@code data:} and {@code blob:} (a note's attachments, fetched with the bearer and shown from the page's memory)
 * only unless remote images are opted in (a remote image in a note would tell its host who reads the note and
 * when), fetches to the hub and to the login issuer (discovery, token endpoint), no plugins, no framing, no
 * {@code <base>}.
 */
public final class ContentSecurityPolicy {
    private ContentSecurityPolicy() {
    }

    public static String header(SecuritySettings security, UiSettings ui) {
        String issuer = ui.loginIssuer(security);
        return String.join("; ",
                "default-src 'self'",
                "script-src 'self'",
                "style-src 'self'",
                "img-src 'self' data: blob:" + (ui.remoteImages() ? " https:" : ""),
                "connect-src 'self'" + (issuer != null ? " " + UiSettings.origin(issuer) : ""),
                "object-src 'none'",
                "base-uri 'none'",
                "frame-ancestors 'none'",
                "form-action 'self'");
    }
}
