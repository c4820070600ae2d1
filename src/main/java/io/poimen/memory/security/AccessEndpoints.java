package io.poimen.memory.security;

import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.security.policy.VaultResource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.Header;

/**
 * The security endpoints' steps: the admin check of {@code GET /memory/audit}, and
 * {@code GET /memory/access/check?path=} (what may the caller do with this vault path: read and write decisions
 * with their reason codes, both audited). A caller who may not read the path is told {@value #DENIED} for both,
 * whatever the reason (a policy that denies, no policy, a broken one): the precise reason is in the audit log only, so
 * the answer says nothing about what exists there.
 */
public class AccessEndpoints {
    /** The reason shown for a path the caller may not read. */
    public static final String DENIED = "denied";
    private final CallerResolver callers;
    private final AccessChecks checks;
    private final AuditedAccess access;
    private final VaultPathGuard paths;

    public AccessEndpoints(CallerResolver callers, AccessChecks checks, AuditedAccess access, VaultPathGuard paths) {
        this.callers = callers;
        this.checks = checks;
        this.access = access;
        this.paths = paths;
    }

    public void requireAdmin(Exchange exchange) {
        checks.requireAdmin(callers.caller(exchange), ExchangeSecurity.traceId(exchange));
    }

    public Map<String, Object> check(@Header("path") String path, Exchange exchange) {
        Caller caller = callers.caller(exchange);
        String traceId = ExchangeSecurity.traceId(exchange);
        paths.resolve(path);
        VaultResource resource = VaultResource.of(path);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("path", path);
        out.put("resource_type", resource.type());
        out.put("resource_name", resource.name());
        if (caller.anonymous()) {
            Map<String, Object> open = decision(true, "auth_disabled");
            out.put("read", open);
            out.put("write", open);
            return out;
        }
        AccessDecision read = access.engine().check(caller, resource, Action.READ);
        AccessDecision write = access.engine().check(caller, resource, Action.WRITE);
        access.record(caller, List.of(read, write), traceId);
        out.put("read", decision(read.allowed(), read.allowed() ? read.reason() : DENIED));
        out.put("write", decision(write.allowed(), read.allowed() ? write.reason() : DENIED));
        return out;
    }

    private static Map<String, Object> decision(boolean allowed, String reason) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("allowed", allowed);
        d.put("reason", reason);
        return d;
    }
}
