package io.poimen.memory.config;

import java.util.ArrayList;
import java.util.List;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.PlatformHttpEndpoint;
import org.apache.camel.component.platform.http.spi.PlatformHttpConsumer;
import org.apache.camel.component.platform.http.spi.PlatformHttpEngine;
import org.apache.camel.component.platform.http.springboot.SpringBootPlatformHttpEngine;
import org.apache.camel.spi.InterceptStrategy;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.servlet.mvc.method.annotation.DeferredResultMethodReturnValueHandler;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * The REST routes run on the servlet thread that took the request. Camel's Spring Boot engine would hand every
 * request to Spring's task executor (8 threads) and the servlet container would then take the answer back on
 * another dispatch: two thread hand-offs per request, and at most 8 requests in the routes at once however many
 * servlet threads wait. Run inline, the future the engine returns is already complete, and
 * {@link CompletedReplyHandler} finishes the request on the same thread instead of an async re-dispatch.
 */
@Configuration
public class PlatformHttpConfig {

    /** Every REST route's consumer answers a failure its route left unanswered ({@link UnhandledFailures}). */
    @Bean("platform-http-engine")
    PlatformHttpEngine platformHttpEngine(@Value("${server.port:8080}") int port) {
        return new SpringBootPlatformHttpEngine(port, Runnable::run) {
            @Override
            public PlatformHttpConsumer createConsumer(PlatformHttpEndpoint endpoint, Processor processor) {
                return super.createConsumer(endpoint, UnhandledFailures.answering(processor));
            }
        };
    }

    /** An Error a route step throws takes the route's error path ({@link StepErrors}). */
    @Bean
    InterceptStrategy stepErrors() {
        return new StepErrors();
    }

    /** Puts {@link CompletedReplyHandler} before Spring's handler of futures (which it falls back on). */
    @Bean
    static BeanPostProcessor completedReplies() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (bean instanceof RequestMappingHandlerAdapter adapter && adapter.getReturnValueHandlers() != null) {
                    List<HandlerMethodReturnValueHandler> handlers = new ArrayList<>();
                    adapter.getReturnValueHandlers().stream()
                            .filter(DeferredResultMethodReturnValueHandler.class::isInstance).findFirst()
                            .ifPresent(async -> handlers.add(new CompletedReplyHandler(async)));
                    handlers.addAll(adapter.getReturnValueHandlers());
                    adapter.setReturnValueHandlers(handlers);
                }
                return bean;
            }
        };
    }
}
