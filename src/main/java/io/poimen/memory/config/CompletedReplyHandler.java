package io.poimen.memory.config;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.camel.component.platform.http.springboot.SpringBootPlatformHttpConsumer;
import org.springframework.core.MethodParameter;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Finishes a Camel REST request on the servlet thread when the route has already answered. The platform-http
 * consumer returns a {@link CompletableFuture}, and Spring MVC treats every future as asynchronous: it starts an
 * async request, and the container re-dispatches it on another of its threads, through the filter chain and the
 * dispatcher servlet a second time, only to learn that the route wrote the answer already. With the routes run
 * inline ({@link PlatformHttpConfig}) the future is complete when it is returned, so that second trip is waste.
 * A future not yet complete (or returned by any other handler) goes to Spring's own asynchronous handling.
 */
final class CompletedReplyHandler implements HandlerMethodReturnValueHandler {
    private final HandlerMethodReturnValueHandler async;

    /** @param async Spring's handler of futures, used when the route has not answered yet */
    CompletedReplyHandler(HandlerMethodReturnValueHandler async) {
        this.async = async;
    }

    @Override
    public boolean supportsReturnType(MethodParameter returnType) {
        return SpringBootPlatformHttpConsumer.class.isAssignableFrom(returnType.getContainingClass())
                && CompletableFuture.class.isAssignableFrom(returnType.getParameterType());
    }

    @Override
    public void handleReturnValue(Object value, MethodParameter returnType, ModelAndViewContainer mav,
                                  NativeWebRequest request) throws Exception {
        if (!(value instanceof CompletableFuture<?> future) || !future.isDone()) {
            async.handleReturnValue(value, returnType, mav, request);
            return;
        }
        try {
            future.join();
        } catch (CompletionException e) {
            // the same exception Spring's async dispatch would hand to the exception resolvers
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof Exception ex) {
                throw ex;
            }
            throw (Error) cause;
        }
        mav.setRequestHandled(true); // the consumer wrote status, headers and body itself
    }
}
