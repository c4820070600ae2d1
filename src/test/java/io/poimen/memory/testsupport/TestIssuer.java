package io.poimen.memory.testsupport;

import com.nimbusds.jose.JOSEObjectType;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;

/**
 * mock-oauth2-server as the hub's OIDC issuer {@value #ID}: discovery, JWKS, tokens issued directly for API
 * callers, and (when interactive) its real login page for the browser's Authorization Code flow. Tokens from the
 * login page carry the claims typed into its form and the hub's audience (asked for as a scope, as with most
 * issuers), and live {@code tokenSeconds}.
 */
public final class TestIssuer {
    public static final String ID = "poimen-test";
    public static final String AUDIENCE = "poimen-memory";

    private TestIssuer() {
    }

    public static MockOAuth2Server start() {
        MockOAuth2Server server = new MockOAuth2Server();
        server.start(0);
        return server;
    }

    public static MockOAuth2Server startInteractive(long tokenSeconds) {
        MockOAuth2Server server = new MockOAuth2Server(OAuth2Config.Companion.fromJson("""
                {"interactiveLogin": true,
                 "tokenCallbacks": [{"issuerId": "%s", "tokenExpiry": %d,
                   "requestMappings": [{"requestParam": "grant_type", "match": "*",
                                        "claims": {"aud": ["%s"]}}]}]}""".formatted(ID, tokenSeconds, AUDIENCE)));
        server.start(0);
        return server;
    }

    public static String issuerUrl(MockOAuth2Server server) {
        return server.issuerUrl(ID).toString();
    }

    /** A signed access token for the hub's audience with these groups and roles, valid for an hour. */
    public static String token(MockOAuth2Server server, String subject, List<String> groups, List<String> roles) {
        return server.issueToken(ID, "poimen-cli", new DefaultOAuth2TokenCallback(ID, subject,
                JOSEObjectType.JWT.getType(), List.of(AUDIENCE), Map.of("groups", groups, "roles", roles), 3600))
                .serialize();
    }
}
