/**
 * Access control: the door every surface asks ({@link io.poimen.memory.security.Access}), and three parts behind it.
 *
 * <h2>The door</h2>
 * {@link io.poimen.memory.security.Access}: <em>require</em> (read / write / admin, audited; the uniform 403, or 404
 * where a denied note answers as a missing one), <em>filter</em> ({@link io.poimen.memory.security.ReadAccess}, per
 * folder, audited once per request) and <em>scope</em> ({@link io.poimen.memory.security.ReadableScope}, the read
 * predicate of a search, audited by its owner). It delegates to the mode's
 * {@link io.poimen.memory.security.AccessChecks} ({@link io.poimen.memory.security.LocalOperatorAccess} for
 * {@code mode=none}, {@link io.poimen.memory.security.OidcAccessChecks} for {@code mode=oidc}) and to
 * {@link io.poimen.memory.security.AuditedAccess} (engine decisions written to the audit log in the same request,
 * or 503). {@link io.poimen.memory.security.SecurityConfig} wires it all.
 *
 * <h2>Parts</h2>
 * <ul>
 *   <li>{@code auth}: who calls. Bearer JWTs ({@code JwtDecoders}, {@code JwksCache}, {@code JwtCallerFactory}),
 *       the servlet filters ({@code CallerFilter}, {@code TraceIdFilter}), how a Camel bean finds the caller
 *       ({@code CallerResolver}, {@code ExchangeSecurity}, {@code RequestSecurityRoutePolicy}), the mode guard.</li>
 *   <li>{@code policy}: what the policies allow. {@code RbacEngine} (levels, reason codes, write rule) over
 *       {@code PolicyStore} (fail-closed policy files, hot reload), roles, the decision types, {@code Caller},
 *       {@code VaultPathGuard} (400 {@code bad_path}). Pure: it records nothing.</li>
 *   <li>{@code audit}: the decision log ({@code AuditLog} through {@code direct:audit}, its spool while the
 *       database is away, the audit query).</li>
 * </ul>
 * {@code policy} depends on no other part; {@code auth} and {@code audit} on {@code policy} only (ArchitectureTest).
 *
 * <h2>Modes ({@code poimen.security.*})</h2>
 * {@code mode=none} (embedded default): no authentication, every request is the local operator and no policy applies
 * (vault paths are still checked); refused unless {@code server.address} is loopback. {@code mode=oidc} (prod
 * profile): a bearer JWT on everything but {@code /actuator/health} and {@code /actuator/info}; {@code issuer-uri}
 * (discovery) or {@code jwk-set-uri} + {@code issuer}; {@code audience} (default {@code poimen-memory});
 * {@code clock-skew} (default 30s).
 *
 * <h2>How a Camel bean gets the caller</h2>
 * Spring Security authenticates on the servlet thread; the platform-http consumer then runs the route on another
 * thread, where {@code SecurityContextHolder} is empty. {@code CallerFilter} stores the caller as a request
 * attribute, {@code RequestSecurityRoutePolicy} copies it (and the trace id) into exchange properties when the
 * exchange begins, and {@code CallerResolver#caller} reads it from there. Headers are never consulted.
 */
package io.poimen.memory.security;
