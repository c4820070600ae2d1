package io.poimen.memory.security;

import io.poimen.memory.security.auth.CallerFilter;
import io.poimen.memory.security.auth.TraceIds;
import io.poimen.memory.security.policy.Caller;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.env.Environment;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Who may read the actuator's metrics in oidc mode. Spring Boot applies the same security filter chain to a
 * separate management port ({@code management.server.port} other than the API's): requests there are told apart
 * by the port they came in on, and left to the network's protection (k8s: the Ingress routes only the API port and
 * a NetworkPolicy admits the monitoring namespace; compose binds it to 127.0.0.1). On the API port the metrics,
 * vault-wide operator data, need the admin check.
 */
final class ManagementPort {
    private ManagementPort() {
    }

    /** A request on a management port other than the API's (the ports the servers were given at start). */
    static RequestMatcher separate(Environment environment) {
        return request -> {
            String management = environment.getProperty("local.management.port");
            return management != null && !management.equals(environment.getProperty("local.server.port"))
                    && management.equals(String.valueOf(request.getLocalPort()));
        };
    }

    /** The caller of the request's bearer passes the admin check ({@link AccessChecks#isAdmin}, audited). */
    static AuthorizationManager<RequestAuthorizationContext> operatorsOnly(AccessChecks checks) {
        return (authentication, context) -> {
            authentication.get(); // without a bearer: 401, as everywhere else
            HttpServletRequest request = context.getRequest();
            Object caller = request.getAttribute(CallerFilter.ATTRIBUTE);
            return new AuthorizationDecision(caller instanceof Caller c
                    && checks.isAdmin(c, (String) request.getAttribute(TraceIds.ATTRIBUTE)));
        };
    }
}
