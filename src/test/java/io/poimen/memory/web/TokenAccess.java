package io.poimen.memory.web;

import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.Caller;
import io.poimen.memory.security.CallerResolver;
import io.poimen.memory.vault.VaultPaths;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.camel.Exchange;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * A test stand-in for the OIDC resolver: the bearer token names the caller's groups ({@code Bearer rust,ops}), a
 * missing token is 401, and {@code projects/rust-guide/} needs the group {@code rust}. It reads the token from the
 * {@code Authorization} header on the Camel message, as the real resolver must for the MCP tools to work.
 */
public class TokenAccess implements CallerResolver, AccessChecks {
    public final List<String> seenTokens = new CopyOnWriteArrayList<>();
    public final List<String> decisions = new CopyOnWriteArrayList<>();

    @Override
    public Caller caller(Exchange exchange) {
        String header = exchange.getMessage().getHeader("Authorization", String.class);
        if (header == null || !header.startsWith("Bearer ")) {
            throw new ApiException(401, "unauthorized", "a bearer token is required");
        }
        String token = header.substring("Bearer ".length());
        seenTokens.add(token);
        return new Caller(token, token, null, List.of(token.split(",")), List.of(), List.of(), false);
    }

    @Override
    public void requireRead(Caller caller, String vaultPath, String traceId) {
        boolean allowed = !"rust-guide".equals(VaultPaths.projectOf(vaultPath)) || caller.groups().contains("rust");
        decisions.add((allowed ? "allow " : "deny ") + caller.subject() + " " + vaultPath);
        if (!allowed) {
            throw new ApiException(403, "forbidden", "no read access to " + vaultPath);
        }
    }

    @Override
    public void requireWrite(Caller caller, String vaultPath, String traceId) {
        throw new ApiException(403, "forbidden", "read-only test caller");
    }

    @Override
    public void requireAdmin(Caller caller, String traceId) {
        throw new ApiException(403, "forbidden", "read-only test caller");
    }

    @TestConfiguration
    public static class Config {
        @Bean
        @Primary
        TokenAccess tokenAccess() {
            return new TokenAccess();
        }
    }
}
