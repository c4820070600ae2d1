/**
 * Authentication, access control and the audit log.
 *
 * <h2>Modes ({@code poimen.security.*})</h2>
 * <ul>
 *   <li>{@code mode=none} (embedded default): no authentication, every request is {@link io.poimen.memory.security.policy.Caller#LOCAL_OPERATOR}
 *       and no policy applies (vault paths are still checked). Refused unless {@code server.address} is loopback.</li>
 *   <li>{@code mode=oidc} (prod profile): bearer JWT required on everything but {@code /actuator/health} and
 *       {@code /actuator/info}; {@code issuer-uri} (discovery) or {@code jwk-set-uri} + {@code issuer};
 *       {@code audience} (default {@code poimen-memory}); {@code clock-skew} (default 30s).</li>
 * </ul>
 *
 * <h2>How a Camel bean gets the caller</h2>
 * Spring Security authenticates on the servlet thread; the platform-http consumer then runs the route on another
 * thread, where {@code SecurityContextHolder} is empty. {@link io.poimen.memory.security.auth.CallerFilter} stores the
 * {@link io.poimen.memory.security.policy.Caller} as a request attribute, {@link io.poimen.memory.security.auth.RequestSecurityRoutePolicy}
 * copies it (and the trace id) into exchange properties when the exchange begins, and
 * {@link io.poimen.memory.security.auth.CallerResolver#caller} reads it from there. Headers are never consulted.
 *
 * <h2>Decisions</h2>
 * {@link io.poimen.memory.security.policy.RbacEngine} (levels, reason codes, write rule) over
 * {@link io.poimen.memory.security.policy.PolicyStore} (fail-closed policy files, hot reload by modification time and size);
 * {@link io.poimen.memory.security.AuditedAccess} writes every decision through the {@code direct:audit} route
 * ({@link io.poimen.memory.security.audit.AuditRoutes}, camel-sql) in the same request, or fails the request with 503.
 * Entry points call {@link io.poimen.memory.security.AccessChecks} (read / write / admin on a vault path, 403 with
 * {@code reason}) after {@link io.poimen.memory.security.policy.VaultPathGuard} (400 {@code bad_path}).
 */
package io.poimen.memory.security;
