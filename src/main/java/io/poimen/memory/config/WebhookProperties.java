package io.poimen.memory.config;


/** Settings under {@code poimen.webhook.*}. @param secret the webhook's secret in Forgejo (HMAC-SHA256 key) */
public record WebhookProperties(String secret) {
}
