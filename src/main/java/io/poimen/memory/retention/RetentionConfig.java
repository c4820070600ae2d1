package io.poimen.memory.retention;

import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.config.RetentionProperties;
import java.time.Clock;
import javax.sql.DataSource;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Retention of the tables that grow with use, run by the writer ({@code poimen.retention.*}). */
@Configuration
public class RetentionConfig {

    @Bean
    Retention retention(DataSource dataSource, RetentionProperties settings) {
        return new Retention(dataSource, settings, Clock.systemUTC());
    }

    @Bean
    RetentionHealthIndicator retentionHealthIndicator(Retention retention) {
        return new RetentionHealthIndicator(retention);
    }

    /** Every {@code poimen.retention.period} on the writer only (the lease {@code poimen.cluster.namespace}). */
    @Bean
    RouteBuilder retentionRoute(PoimenProperties props, Retention retention) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("master:" + props.cluster().namespace() + ":timer:retention?period="
                        + props.retention().period().toMillis()).routeId("retention").bean(retention, "run");
            }
        };
    }
}
