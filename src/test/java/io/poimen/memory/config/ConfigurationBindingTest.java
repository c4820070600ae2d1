package io.poimen.memory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The {@code poimen.*} tree binds from the real application.yaml (default and prod profile), with the defaults of
 * the records; a value of the wrong type, a bad duration or one out of range stops the start with the key in the
 * message; durations take the forms operators already write.
 */
class ConfigurationBindingTest {

    @Configuration(proxyBeanMethods = false)
    @Import(PropertiesConfig.class)
    static class Tree {
    }

    static ConfigurableApplicationContext start(String profile, String... args) {
        SpringApplicationBuilder app = new SpringApplicationBuilder(Tree.class).web(WebApplicationType.NONE)
                .logStartupInfo(false);
        if (profile != null) {
            app.profiles(profile);
        }
        return app.run(args);
    }

    @Test
    void embeddedDefaultsComeFromTheRecordsAndReachPlaceholders() {
        try (var ctx = start(null)) {
            PoimenProperties p = ctx.getBean(PoimenProperties.class);
            assertThat(p.vault().path()).isEqualTo(Path.of("data/vault"));
            assertThat(p.vault().seed()).isEqualTo("examples/vault");
            assertThat(p.vault().maxFileBytes()).isEqualTo(5_242_880L);
            assertThat(p.query().embeddingCoolDownMs()).isEqualTo(Duration.ofSeconds(30));
            assertThat(p.session().ttl()).isEqualTo(Duration.ofMinutes(30));
            assertThat(p.session().carryShare()).isEqualTo(0.75);
            assertThat(p.lexical().fieldTieBreaker()).isZero();
            assertThat(p.embedding().textsAtOnce()).isEqualTo(Runtime.getRuntime().availableProcessors());
            assertThat(p.routesDir()).isEqualTo(Path.of("routes"));
            assertThat(ctx.getBean(ClusterProperties.class).followPeriod()).isEqualTo(Duration.ofMillis(250));
            assertThat(ctx.getBean(ForgejoProperties.class).delivery().retryPeriod()).isEqualTo(Duration.ofSeconds(15));
            // the module sections are components of the one tree, offered as beans of their own
            assertThat(ctx.getBean(ClusterProperties.class)).isSameAs(p.cluster());
            assertThat(ctx.getBean(WebhookProperties.class)).isSameAs(p.webhook());
            assertThat(ctx.getBean(SecuritySettings.class)).isSameAs(p.security());
            assertThat(p.security().mode()).isEqualTo("none");
            assertThat(p.security().clockSkew()).isEqualTo(Duration.ofSeconds(30));
            assertThat(ctx.getBean(UiSettings.class).scopes()).isEqualTo("openid profile email");
            assertThat(ctx.getBean(UiSettings.class).clientId()).isEqualTo("poimen-memory");
            var env = ctx.getEnvironment();
            // what routes' {{poimen.x}} and application.yaml's ${poimen.x} see without any setting
            assertThat(env.getProperty("poimen.cluster.requests-period")).isEqualTo("250");
            assertThat(env.getProperty("poimen.forgejo.delivery.redelivery-delay")).isEqualTo("500");
            assertThat(env.getProperty("spring.datasource.url")).startsWith("jdbc:h2:file:./data/poimen;");
            assertThat(env.getProperty("camel.main.routes-include-pattern")).isEqualTo("file:routes/*.camel.yaml");
            assertThat(env.getProperty("spring.flyway.placeholders.dims")).isEqualTo("384");
        }
    }

    @Test
    void aSettingWinsOverTheDefaultAndDurationsTakeTheUsualForms() {
        try (var ctx = start(null, "--poimen.cluster.follow-period=1s", "--poimen.git.poll-period=30000",
                "--poimen.agents.stream-timeout=PT45M", "--poimen.query.branch-timeout-ms=250ms",
                "--poimen.data.dir=/tmp/elsewhere", "--poimen.embedding.threads=3")) {
            assertThat(ctx.getBean(ClusterProperties.class).followPeriod()).isEqualTo(Duration.ofSeconds(1));
            assertThat(ctx.getBean(GitProperties.class).pollPeriod()).isEqualTo(Duration.ofSeconds(30));
            PoimenProperties p = ctx.getBean(PoimenProperties.class);
            assertThat(p.agents().streamTimeout()).isEqualTo(Duration.ofMinutes(45));
            assertThat(p.query().branchTimeoutMs()).isEqualTo(Duration.ofMillis(250));
            assertThat(p.embedding().textsAtOnce()).isEqualTo(3);
            // what a route's {{...}} sees: milliseconds, also for the ISO form Camel would read as 0
            assertThat(ctx.getEnvironment().getProperty("poimen.cluster.follow-period")).isEqualTo("1000");
            assertThat(ctx.getEnvironment().getProperty("poimen.agents.stream-timeout")).isEqualTo("2700000");
            assertThat(ctx.getEnvironment().getProperty("spring.datasource.url")).startsWith("jdbc:h2:file:/tmp/elsewhere/");
        }
    }

    @Test
    void prodProfileBinds() {
        try (var ctx = start("prod")) {
            PoimenProperties p = ctx.getBean(PoimenProperties.class);
            assertThat(p.vector().backend()).isEqualTo("pgvector");
            assertThat(p.lexical().backend()).isEqualTo("opensearch");
            assertThat(p.vault().path()).isEqualTo(Path.of("/data/vault"));
            assertThat(p.opensearch().url()).isEqualTo("http://localhost:9200");
            assertThat(p.opensearch().caBundle()).isNull();
            assertThat(ctx.getBean(SecuritySettings.class).oidc()).isTrue();
            assertThat(ctx.getBean(SecuritySettings.class).audience()).isEqualTo("poimen-memory");
            assertThat(ctx.getBean(GitProperties.class).draftsDir().normalize()).isEqualTo(Path.of("data/grc/drafts.git"));
            assertThat(ctx.getEnvironment().getProperty("spring.datasource.url"))
                    .isEqualTo("jdbc:postgresql://localhost:5432/poimen");
        }
    }

    @Test
    void aBadDurationStopsTheStartNamingTheKey() {
        assertThatThrownBy(() -> start(null, "--poimen.session.ttl=soon").close())
                .hasStackTraceContaining("poimen.session.ttl").hasStackTraceContaining("soon");
        assertThatThrownBy(() -> start(null, "--poimen.cluster.follow-period=fast").close())
                .hasStackTraceContaining("poimen.cluster.follow-period");
    }

    @Test
    void aBlankAudienceStopsTheStart() {
        assertThatThrownBy(() -> start(null, "--poimen.security.audience= ").close())
                .hasStackTraceContaining("poimen.security.audience");
    }

    @Test
    void aWrongTypeStopsTheStartNamingTheKey() {
        assertThatThrownBy(() -> start(null, "--poimen.vault.max-file-bytes=big").close())
                .hasStackTraceContaining("poimen.vault.max-file-bytes");
        assertThatThrownBy(() -> start(null, "--poimen.lexical.fuzzy=maybe").close())
                .hasStackTraceContaining("poimen.lexical.fuzzy");
    }

    @Test
    void aValueOutOfRangeStopsTheStartNamingTheKey() {
        assertThatThrownBy(() -> start(null, "--poimen.session.carry-share=2").close())
                .hasStackTraceContaining("poimen.session").hasStackTraceContaining("carryShare");
        assertThatThrownBy(() -> start(null, "--poimen.embedding.batch-size=0").close())
                .hasStackTraceContaining("poimen.embedding").hasStackTraceContaining("batchSize");
        assertThatThrownBy(() -> start(null, "--poimen.embedding.threads=0").close())
                .hasStackTraceContaining("poimen.embedding").hasStackTraceContaining("threads");
        assertThatThrownBy(() -> start(null, "--poimen.lexical.field-tie-breaker=1.5").close())
                .hasStackTraceContaining("poimen.lexical.field-tie-breaker must be in [0, 1], got 1.5");
    }

    @Test
    void aBadLimitStopsTheStartSayingWhatALimitIs() {
        assertThatThrownBy(() -> start(null, "--poimen.limits.query-per-minute=-5").close())
                .hasStackTraceContaining("poimen.limits.query-per-minute must be a number of requests per minute, "
                        + "0 for no limit; got -5");
        assertThatThrownBy(() -> start(null, "--poimen.limits.writes-per-minute=lots").close())
                .hasStackTraceContaining("poimen.limits.writes-per-minute").hasStackTraceContaining("lots");
        assertThatThrownBy(() -> start(null, "--poimen.limits.replicas=0").close())
                .hasStackTraceContaining("poimen.limits.replicas must be the number of hub replicas");
        try (var ctx = start(null)) {
            LimitsProperties limits = ctx.getBean(LimitsProperties.class);
            assertThat(limits).isEqualTo(new LimitsProperties(600, 1200, 300, 1, false));
        }
    }
}
