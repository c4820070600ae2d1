package io.poimen.memory.security.policy;

import java.util.List;

/**
 * Who is calling, from the validated token's claims (or the local operator in the no-auth embedded mode).
 *
 * @param subject     OIDC {@code sub}
 * @param name        display name ({@code name} or {@code preferred_username}, else the subject)
 * @param email       e-mail claim or null
 * @param groups      group claim (name configurable; Authentik: groups)
 * @param roles       role claim
 * @param permissions permission claim
 * @param anonymous   true only in the embedded no-auth mode on loopback
 */
public record Caller(String subject, String name, String email, List<String> groups, List<String> roles,
                     List<String> permissions, boolean anonymous) {

    public static final Caller LOCAL_OPERATOR = new Caller("local", "local operator", null, List.of(), List.of(),
            List.of(), true);
}
