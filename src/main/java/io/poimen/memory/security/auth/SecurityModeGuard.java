package io.poimen.memory.security.auth;

import io.poimen.memory.config.SecuritySettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses unsafe security settings at start: {@code none} only on a loopback {@code server.address}, {@code oidc}
 * only with an issuer (discovery URI, or JWKS URI plus expected issuer). An unset address means every interface,
 * which is not loopback.
 */
public final class SecurityModeGuard {
    private static final Logger log = LoggerFactory.getLogger(SecurityModeGuard.class);

    private SecurityModeGuard() {
    }

    /** @throws IllegalStateException with the reason and the fix when the hub must not start */
    public static void check(SecuritySettings s, String serverAddress) {
        check(s, serverAddress, null, null, null);
    }

    /**
     * As {@link #check(SecuritySettings, String)}, and in the no-auth mode a separate management port (metrics,
     * health) must be bound to loopback too: {@code management.server.address} unset means every interface.
     */
    public static void check(SecuritySettings s, String serverAddress, String serverPort, String managementPort,
                             String managementAddress) {
        if (s.mode().isEmpty()) {
            throw new IllegalStateException("poimen.security.mode is set but blank (env POIMEN_SECURITY_MODE): set it "
                    + "to oidc (with poimen.security.issuer-uri), or to none (no authentication, loopback only), "
                    + "or remove it for the default none.");
        }
        if (SecuritySettings.NONE.equals(s.mode()) && separatePort(serverPort, managementPort)
                && !isLoopback(managementAddress)) {
            throw new IllegalStateException("poimen.security.mode=none (no authentication) is allowed only on "
                    + "loopback, but management.server.port=" + managementPort + " listens on "
                    + (managementAddress == null || managementAddress.isBlank() ? "every interface"
                    : managementAddress) + ". Set management.server.address=127.0.0.1, drop management.server.port, "
                    + "or use poimen.security.mode=oidc.");
        }
        switch (s.mode()) {
            case SecuritySettings.NONE -> {
                if (!isLoopback(serverAddress)) {
                    throw new IllegalStateException("poimen.security.mode=none (no authentication) is allowed only "
                            + "when server.address is a loopback address, but server.address is "
                            + (serverAddress == null || serverAddress.isBlank() ? "unset (all interfaces)" : serverAddress)
                            + ". Set poimen.security.mode=oidc with poimen.security.issuer-uri, "
                            + "or bind to 127.0.0.1.");
                }
                log.warn("""

                        ************************************************************************
                        *  AUTHENTICATION IS OFF (poimen.security.mode=none).                  *
                        *  Every request is the local operator and no access policy applies.   *
                        *  Allowed only because the hub listens on loopback ({}).
                        *  Use poimen.security.mode=oidc for anything shared.                  *
                        ************************************************************************""",
                        serverAddress);
            }
            case SecuritySettings.OIDC -> {
                if (s.issuerUri() == null && (s.jwkSetUri() == null || s.issuer() == null)) {
                    throw new IllegalStateException("poimen.security.mode=oidc needs an issuer: set "
                            + "poimen.security.issuer-uri (OIDC discovery), or poimen.security.jwk-set-uri together "
                            + "with poimen.security.issuer (env POIMEN_OIDC_ISSUER_URI in the prod profile).");
                }
            }
            default -> throw new IllegalStateException("poimen.security.mode must be none or oidc, got " + s.mode());
        }
    }

    /** True when the management endpoints get their own listener (a port set, not -1, not the server's). */
    static boolean separatePort(String serverPort, String managementPort) {
        if (managementPort == null || managementPort.isBlank() || managementPort.trim().equals("-1")) {
            return false;
        }
        return !managementPort.trim().equals(serverPort == null || serverPort.isBlank() ? "8080" : serverPort.trim());
    }

    static boolean isLoopback(String address) {
        if (address == null || address.isBlank()) {
            return false;
        }
        try {
            return InetAddress.getByName(address.trim()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
