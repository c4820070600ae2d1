package io.poimen.memory.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings under {@code poimen.webhook.*}. @param secret the webhook's secret in Forgejo (HMAC-SHA256 key) */
@ConfigurationProperties("poimen.webhook")
public record WebhookProperties(String secret) {
}
