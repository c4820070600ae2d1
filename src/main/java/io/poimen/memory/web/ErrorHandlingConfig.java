package io.poimen.memory.web;

import io.poimen.memory.config.HttpProperties;
import io.poimen.memory.config.SecuritySettings;
import org.apache.camel.CamelContext;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.security.SecurityProperties;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/**
 * The servlet-level guards in front of every route: JSON errors at the Tomcat level, JSON content types on writes,
 * 503 {@code starting} for API calls until the routes are up, (in the no-auth mode) loopback Host and Origin only,
 * and the request body caps. They run after the trace id filter (errors carry an {@code X-Trace-Id}); all but the
 * body caps before authentication.
 */
@Configuration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class ErrorHandlingConfig {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> jsonTomcatErrors() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
            }
        });
    }

    /**
     * Requests Spring Security's firewall refuses (a method outside GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS, encoded
     * slashes or dots, control characters in the URL): 405 or 400 in the API's shape. The default handler only
     * sends an error status, and the error dispatch it triggers is refused by the firewall again (an empty body).
     */
    @Bean
    RequestRejectedHandler jsonRequestRejectedHandler() {
        return (request, response, e) -> {
            boolean method = e.getMessage() != null && e.getMessage().contains("HTTP method");
            JsonErrorBody.write(response, method ? 405 : 400, method ? "method_not_allowed" : "bad_request",
                    method ? "method " + request.getMethod() + " is not served" : "request refused: " + e.getMessage());
        };
    }

    @Bean
    FilterRegistrationBean<BodilessErrorFilter> bodilessErrorFilter() {
        FilterRegistrationBean<BodilessErrorFilter> reg = new FilterRegistrationBean<>(new BodilessErrorFilter());
        reg.setOrder(Ordered.HIGHEST_PRECEDENCE + 15);
        return reg;
    }

    @Bean
    FilterRegistrationBean<StartingFilter> startingFilter(CamelContext camel) {
        FilterRegistrationBean<StartingFilter> reg = new FilterRegistrationBean<>(
                new StartingFilter(() -> camel.getStatus().isStarted()));
        reg.setOrder(Ordered.HIGHEST_PRECEDENCE + 17);
        return reg;
    }

    @Bean
    FilterRegistrationBean<JsonWritesFilter> jsonWritesFilter() {
        FilterRegistrationBean<JsonWritesFilter> reg = new FilterRegistrationBean<>(new JsonWritesFilter());
        reg.setOrder(Ordered.HIGHEST_PRECEDENCE + 30);
        return reg;
    }

    @Bean
    RequestBodyLimitFilter requestBodyLimitFilter(HttpProperties http) {
        return new RequestBodyLimitFilter(http.maxBody());
    }

    /**
     * After the security chain: a caller without a valid bearer gets its 401 without the hub reading a byte of the
     * body (the webhook, authenticated by its signature over the body, is read up to its own cap).
     */
    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimits(RequestBodyLimitFilter filter) {
        FilterRegistrationBean<RequestBodyLimitFilter> reg = new FilterRegistrationBean<>(filter);
        reg.setOrder(SecurityProperties.DEFAULT_FILTER_ORDER + 10);
        return reg;
    }

    @Bean
    @ConditionalOnProperty(name = "poimen.security.mode", havingValue = SecuritySettings.NONE, matchIfMissing = true)
    FilterRegistrationBean<LoopbackOnlyFilter> loopbackOnlyFilter() {
        FilterRegistrationBean<LoopbackOnlyFilter> reg = new FilterRegistrationBean<>(new LoopbackOnlyFilter());
        reg.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
        return reg;
    }
}
