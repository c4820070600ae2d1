package io.poimen.memory.web;

import io.poimen.memory.security.SecuritySettings;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The servlet-level guards in front of every route: JSON errors at the Tomcat level, JSON content types on writes,
 * and (in the no-auth mode) loopback Host and Origin only. They run after the trace id filter (errors carry an
 * {@code X-Trace-Id}) and before authentication.
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

    @Bean
    FilterRegistrationBean<JsonWritesFilter> jsonWritesFilter() {
        FilterRegistrationBean<JsonWritesFilter> reg = new FilterRegistrationBean<>(new JsonWritesFilter());
        reg.setOrder(Ordered.HIGHEST_PRECEDENCE + 30);
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
