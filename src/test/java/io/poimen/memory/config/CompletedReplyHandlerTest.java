package io.poimen.memory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.camel.component.platform.http.springboot.SpringBootPlatformHttpConsumer;
import org.junit.jupiter.api.Test;
import org.springframework.core.MethodParameter;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.ModelAndViewContainer;

class CompletedReplyHandlerTest {
    private final List<Object> deferred = new ArrayList<>();
    private final HandlerMethodReturnValueHandler async = new HandlerMethodReturnValueHandler() {
        @Override
        public boolean supportsReturnType(MethodParameter returnType) {
            return true;
        }

        @Override
        public void handleReturnValue(Object value, MethodParameter type, ModelAndViewContainer mav,
                                      NativeWebRequest request) {
            deferred.add(value);
        }
    };
    private final CompletedReplyHandler handler = new CompletedReplyHandler(async);

    private static MethodParameter service() throws NoSuchMethodException {
        return new MethodParameter(SpringBootPlatformHttpConsumer.class.getMethod("service",
                HttpServletRequest.class, HttpServletResponse.class), -1);
    }

    CompletableFuture<Void> other() {
        return null;
    }

    @Test
    void takesOnlyTheFuturesOfCamelsPlatformHttpConsumer() throws Exception {
        assertThat(handler.supportsReturnType(service())).isTrue();
        assertThat(handler.supportsReturnType(new MethodParameter(getClass().getDeclaredMethod("other"), -1)))
                .isFalse();
    }

    @Test
    void aCompletedRouteFinishesTheRequestWithoutAsyncDispatch() throws Exception {
        ModelAndViewContainer mav = new ModelAndViewContainer();
        handler.handleReturnValue(CompletableFuture.completedFuture(null), service(), mav, null);
        assertThat(mav.isRequestHandled()).isTrue();
        assertThat(deferred).isEmpty();
    }

    @Test
    void aRouteStillRunningGoesToSpringsAsyncHandling() throws Exception {
        ModelAndViewContainer mav = new ModelAndViewContainer();
        CompletableFuture<Void> running = new CompletableFuture<>();
        handler.handleReturnValue(running, service(), mav, null);
        assertThat(deferred).containsExactly(running);
        assertThat(mav.isRequestHandled()).isFalse();
    }

    @Test
    void aFailedRouteThrowsItsOwnException() throws Exception {
        ModelAndViewContainer mav = new ModelAndViewContainer();
        IOException broken = new IOException("client went away");
        assertThatThrownBy(() -> handler.handleReturnValue(CompletableFuture.failedFuture(broken), service(), mav,
                null)).isSameAs(broken);
        assertThat(mav.isRequestHandled()).isFalse();
        assertThat(deferred).isEmpty();
    }
}
