package io.poimen.memory.testsupport;

import com.nimbusds.jose.JOSEObjectType;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;

/**
 * mock-oauth2-server as the hub's OIDC issuer {@value #ID} for fast tests: discovery, JWKS, tokens issued directly
 * for API callers. The browser's login, renewal and logout run against Keycloak ({@link TestKeycloak}).
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

    public static String issuerUrl(MockOAuth2Server server) {
        return server.issuerUrl(ID).toString();
    }

    /** A signed access token for the hub's audience with these groups and roles, valid for an hour. */
    public static String token(MockOAuth2Server server, String subject, List<String> groups, List<String> roles) {
        return token(server, subject, Map.of("groups", groups, "roles", roles));
    }

    /** A signed access token for the hub's audience with these claims (groups, roles, name, email…), valid for an hour. */
    public static String token(MockOAuth2Server server, String subject, Map<String, Object> claims) {
        return server.issueToken(ID, "poimen-cli", new DefaultOAuth2TokenCallback(ID, subject,
                JOSEObjectType.JWT.getType(), List.of(AUDIENCE), claims, 3600)).serialize();
    }
}
