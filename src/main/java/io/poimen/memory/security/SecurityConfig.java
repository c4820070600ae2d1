package io.poimen.memory.security;

import io.poimen.memory.security.audit.ArrayColumnRowMapperFactory;
import io.poimen.memory.security.audit.AuditLog;
import io.poimen.memory.security.audit.AuditQuery;
import io.poimen.memory.security.audit.AuditRoutes;
import io.poimen.memory.security.audit.AuditSpool;
import io.poimen.memory.security.audit.AuditSpoolRoutes;
import io.poimen.memory.security.auth.CallerFilter;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.JsonAuthenticationEntryPoint;
import io.poimen.memory.security.auth.JwtCallerFactory;
import io.poimen.memory.security.auth.JwtDecoders;
import io.poimen.memory.security.auth.OidcCallerResolver;
import io.poimen.memory.security.auth.RequestSecurityRoutePolicy;
import io.poimen.memory.security.auth.SecurityModeGuard;
import io.poimen.memory.security.auth.TraceIdFilter;
import io.poimen.memory.security.policy.PolicyStore;
import io.poimen.memory.security.policy.RbacEngine;
import io.poimen.memory.security.policy.RolePolicy;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.config.SecuritySettings;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.ops.Availability;
import io.poimen.memory.security.auth.ContentSecurityPolicy;
import io.poimen.memory.config.UiSettings;
import jakarta.servlet.DispatcherType;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.spring.boot.CamelContextConfiguration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.SecurityFilterChain;

/**
 * HTTP security and access control. {@code poimen.security.mode=none} (embedded default, loopback only): permit
 * all, the caller is the local operator. {@code oidc}: every request needs a valid bearer JWT except health and
 * info, the web UI's static files and its public login settings, and the Forgejo webhook (authenticated by its
 * HMAC signature in {@code ForgejoWebhooks}); the REST API, {@code /mcp} and the agent stream all resolve the caller
 * of their own request through {@link CallerFilter}. 401/403 from the filter chain are JSON. Both: stateless, no
 * CSRF (bearer tokens, no cookies), a Content-Security-Policy on every response, every request gets a trace id
 * ({@code X-Trace-Id}).
 */
@Configuration
public class SecurityConfig {
    private static final String MODE = "poimen.security.mode";
    private static final String WEBHOOK = "/memory/webhooks/forgejo";

    public SecurityConfig(SecuritySettings settings, @Value("${server.address:}") String serverAddress,
                          @Value("${server.port:}") String serverPort,
                          @Value("${management.server.port:}") String managementPort,
                          @Value("${management.server.address:}") String managementAddress) {
        SecurityModeGuard.check(settings, serverAddress, serverPort, managementPort, managementAddress);
    }

    @Bean
    RolePolicy rolePolicy(PoimenProperties props) {
        return new RolePolicy(props.policies().dir());
    }

    @Bean
    VaultPathGuard vaultPathGuard(PoimenProperties props) {
        return new VaultPathGuard(props.vault().path());
    }

    @Bean
    PolicyStore policyStore(PoimenProperties props) {
        return new PolicyStore(props.vault().path(), props.policies().dir());
    }

    @Bean
    RbacEngine rbacEngine(PolicyStore policies, RolePolicy roles) {
        return new RbacEngine(policies, roles);
    }

    @Bean
    AuditLog auditLog(ProducerTemplate producer, PoimenProperties props) {
        return new AuditLog(producer, new AuditSpool(props.data().dir().resolve("audit-spool.jsonl")),
                new Availability(props.query().storeCoolDownMs().toMillis()));
    }

    @Bean
    AuditRoutes auditRoutes() {
        return new AuditRoutes();
    }

    @Bean
    AuditSpoolRoutes auditSpoolRoutes(AuditLog auditLog, PoimenProperties props) {
        return new AuditSpoolRoutes(auditLog, props.audit().spoolReplayMs());
    }

    @Bean
    AuditedAccess auditedAccess(RbacEngine engine, AuditLog auditLog, io.poimen.memory.ops.RetrievalMetrics metrics) {
        return new AuditedAccess(engine, auditLog, d -> metrics.accessDecision(
                d.action().key(), d.allowed(), d.reason()));
    }

    @Bean
    @ConditionalOnProperty(name = MODE, havingValue = SecuritySettings.NONE, matchIfMissing = true)
    LocalOperatorAccess localOperatorAccess(VaultPathGuard paths) {
        return new LocalOperatorAccess(paths);
    }

    @Bean
    @ConditionalOnProperty(name = MODE, havingValue = SecuritySettings.OIDC)
    OidcCallerResolver oidcCallerResolver() {
        return new OidcCallerResolver();
    }

    @Bean
    @ConditionalOnProperty(name = MODE, havingValue = SecuritySettings.OIDC)
    OidcAccessChecks oidcAccessChecks(AuditedAccess access, VaultPathGuard paths) {
        return new OidcAccessChecks(access, paths);
    }

    /** The door every surface asks ({@link Access}): the mode's checks and the audited engine behind it. */
    @Bean
    Access access(AccessChecks checks, AuditedAccess audited) {
        return new Access(checks, audited);
    }

    @Bean
    AccessEndpoints accessEndpoints(CallerResolver callers, AccessChecks checks, AuditedAccess access,
                                    VaultPathGuard paths) {
        return new AccessEndpoints(callers, checks, access, paths);
    }

    @Bean
    ArrayColumnRowMapperFactory arrayColumnRowMappers() {
        return new ArrayColumnRowMapperFactory();
    }

    @Bean
    AuditQuery auditQuery() {
        return new AuditQuery();
    }

    @Bean
    CamelContextConfiguration requestSecurityRoutePolicy() {
        return new CamelContextConfiguration() {
            @Override
            public void beforeApplicationStart(CamelContext camelContext) {
                camelContext.addRoutePolicyFactory(RequestSecurityRoutePolicy.factory());
            }

            @Override
            public void afterApplicationStart(CamelContext camelContext) {
                // nothing to do once started
            }
        };
    }

    @Bean
    @ConditionalOnProperty(name = MODE, havingValue = SecuritySettings.OIDC)
    JwtDecoder jwtDecoder(SecuritySettings settings) {
        return JwtDecoders.create(settings);
    }

    /** The servlet side; absent when the hub runs without a web server (CLI commands, NONE-web tests). */
    @Configuration
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class WebSecurity {

        @Bean
        FilterRegistrationBean<TraceIdFilter> traceIdFilter() {
            FilterRegistrationBean<TraceIdFilter> reg = new FilterRegistrationBean<>(new TraceIdFilter());
            reg.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
            return reg;
        }

        /**
         * No Micrometer observation around every filter of the chain, every authorization and authentication: with
         * a registry present Spring Security wraps each of its filters in one (start, scope, stop, per request):
         * 7 % of the HTTP layer's CPU per query in the profile, for spans and meters nothing here reads. The
         * request as a whole is still observed ({@code http.server.requests}).
         */
        @Bean
        SecurityObservationSettings securityObservationSettings() {
            return SecurityObservationSettings.noObservations();
        }

        @Bean
        @ConditionalOnProperty(name = MODE, havingValue = SecuritySettings.NONE, matchIfMissing = true)
        SecurityFilterChain openApi(HttpSecurity http, SecuritySettings settings, UiSettings ui) throws Exception {
            return common(http, settings, ui).authorizeHttpRequests(a -> a.anyRequest().permitAll()).build();
        }

        @Bean
        @ConditionalOnProperty(name = MODE, havingValue = SecuritySettings.OIDC)
        SecurityFilterChain oidcApi(HttpSecurity http, JwtDecoder decoder, RolePolicy roles, SecuritySettings settings,
                                    UiSettings ui, AccessChecks checks, Environment environment) throws Exception {
            JsonAuthenticationEntryPoint json = new JsonAuthenticationEntryPoint();
            return common(http, settings, ui)
                    .authorizeHttpRequests(a -> a
                            // the REQUEST dispatch was authenticated; ASYNC only writes the Camel route's answer
                            .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR).permitAll()
                            // a separate management port (k8s, compose: 9090) is protected by the network instead
                            .requestMatchers(ManagementPort.separate(environment)).permitAll()
                            .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/info").permitAll()
                            // metrics on the API port are operator data: the admin check, audited
                            .requestMatchers("/actuator/prometheus", "/actuator/metrics", "/actuator/metrics/**")
                            .access(ManagementPort.operatorsOnly(checks))
                            // the web UI's files and login settings: the UI logs in before it calls the API
                            .requestMatchers(HttpMethod.GET, "/", "/index.html", "/login-callback.html", "/css/**",
                                    "/js/**", "/favicon.ico", "/memory/ui/config").permitAll()
                            // authenticated by its HMAC signature (ForgejoWebhooks), never by a bearer
                            .requestMatchers(HttpMethod.POST, WEBHOOK).permitAll()
                            .anyRequest().authenticated())
                    .oauth2ResourceServer(o -> o.jwt(j -> j.decoder(decoder)).bearerTokenResolver(bearerOutsideWebhook())
                            .authenticationEntryPoint(json).accessDeniedHandler(json))
                    .exceptionHandling(e -> e.authenticationEntryPoint(json).accessDeniedHandler(json))
                    .addFilterAfter(new CallerFilter(new JwtCallerFactory(roles)), BearerTokenAuthenticationFilter.class)
                    .build();
        }

        /** Forgejo may send an Authorization header of its own on webhooks; only the signature counts there. */
        private static BearerTokenResolver bearerOutsideWebhook() {
            DefaultBearerTokenResolver bearer = new DefaultBearerTokenResolver();
            return request -> WEBHOOK.equals(request.getRequestURI()) ? null : bearer.resolve(request);
        }

        private static HttpSecurity common(HttpSecurity http, SecuritySettings settings, UiSettings ui)
                throws Exception {
            return http
                    .headers(h -> h.contentSecurityPolicy(c -> c.policyDirectives(
                            ContentSecurityPolicy.header(settings, ui))))
                    .csrf(c -> c.disable())
                    .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                    .httpBasic(b -> b.disable())
                    .formLogin(f -> f.disable())
                    .anonymous(a -> a.disable())
                    .cors(Customizer.withDefaults());
        }
    }
}
