package io.poimen.memory.web.limits;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.memory.config.LimitsProperties;
import io.poimen.memory.config.SecuritySettings;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.security.SecurityProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Registers {@link CallerRateLimitFilter} on its own, right after the security filter chain. */
@Configuration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class RateLimitConfig {

    /**
     * After Spring Security's chain ({@link SecurityProperties#DEFAULT_FILTER_ORDER}), which resolved the caller;
     * before the MCP envelope filter (order 0) and the servlets, which read the body.
     */
    static final int ORDER = SecurityProperties.DEFAULT_FILTER_ORDER + 10;

    @Bean
    FilterRegistrationBean<CallerRateLimitFilter> callerRateLimitFilter(LimitsProperties limits,
                                                                         SecuritySettings security,
                                                                         MeterRegistry registry) {
        FilterRegistrationBean<CallerRateLimitFilter> reg = new FilterRegistrationBean<>(
                new CallerRateLimitFilter(limits, security.oidc(), registry, Ticker.systemTicker()));
        reg.setOrder(ORDER);
        return reg;
    }
}
