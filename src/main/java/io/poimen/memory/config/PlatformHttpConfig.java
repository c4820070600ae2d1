package io.poimen.memory.config;

import org.apache.camel.component.platform.http.spi.PlatformHttpEngine;
import org.apache.camel.component.platform.http.springboot.SpringBootPlatformHttpEngine;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The REST routes run on the servlet thread that took the request. Camel's Spring Boot engine would hand every
 * request to Spring's task executor (8 threads) and the servlet container would then take the answer back on
 * another dispatch: two thread hand-offs per request, and at most 8 requests in the routes at once however many
 * servlet threads wait. Run inline, the future the engine returns is already complete and the container
 * finishes the request on the same thread.
 */
@Configuration
public class PlatformHttpConfig {

    @Bean("platform-http-engine")
    PlatformHttpEngine platformHttpEngine(@Value("${server.port:8080}") int port) {
        return new SpringBootPlatformHttpEngine(port, Runnable::run);
    }
}
