package io.poimen.memory.config;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Binds the {@code poimen.*} tree and offers its module sections as beans of their own. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PoimenProperties.class)
public class PropertiesConfig {

    @Bean
    ClusterProperties clusterProperties(PoimenProperties p) {
        return p.cluster();
    }

    @Bean
    GitProperties gitProperties(PoimenProperties p) {
        return p.git();
    }

    @Bean
    ForgejoProperties forgejoProperties(PoimenProperties p) {
        return p.forgejo();
    }

    @Bean
    WebhookProperties webhookProperties(PoimenProperties p) {
        return p.webhook();
    }

    @Bean
    SecuritySettings securitySettings(PoimenProperties p) {
        return p.security();
    }

    @Bean
    UiSettings uiSettings(PoimenProperties p) {
        return p.ui();
    }

    @Bean
    LimitsProperties limitsProperties(PoimenProperties p) {
        return p.limits();
    }

    @Bean
    RetentionProperties retentionProperties(PoimenProperties p) {
        return p.retention();
    }

    @Bean
    HttpProperties httpProperties(PoimenProperties p) {
        return p.http();
    }
}
