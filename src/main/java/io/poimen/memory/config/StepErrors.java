package io.poimen.memory.config;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.AsyncCallback;
import org.apache.camel.AsyncProcessor;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.Exchange;
import org.apache.camel.NamedNode;
import org.apache.camel.Processor;
import org.apache.camel.spi.InterceptStrategy;
import org.apache.camel.support.processor.DelegateAsyncProcessor;

/**
 * Every route step: an Error it throws (OutOfMemoryError, StackOverflowError) becomes the exchange's exception, so
 * the route takes its error path as for any failure ({@code api-errors}: a 500 JSON answer, the stack trace in the
 * log). Camel wraps an Error of a bean method itself, but not one of its own steps: an asynchronous step
 * ({@code convertBodyTo}, {@code marshal}) let it leave the route at once, past the error handler and the route's
 * after-steps (the exchange stayed counted in flight, and Camel's shutdown waited its whole timeout for it), and
 * the platform-http consumer answered the message as it stood, the request: a 200 echoing the request body. A plain
 * processor was worse: Camel's bridge to the asynchronous engine lets the route go on to its next step first, as if
 * the failed one had succeeded, and only then passes the Error on.
 */
public class StepErrors implements InterceptStrategy {

    @Override
    public Processor wrapProcessorInInterceptors(CamelContext context, NamedNode definition, Processor target,
                                                 Processor nextTarget) {
        return new Guarded(target, definition.getId());
    }

    private static final class Guarded extends DelegateAsyncProcessor {
        private final Processor target;
        private final String step;

        Guarded(Processor target, String step) {
            super(target);
            this.target = target;
            this.step = step;
        }

        @Override
        public boolean process(Exchange exchange, AsyncCallback callback) {
            if (!(target instanceof AsyncProcessor)) {
                // run here rather than through Camel's bridge, which calls back (the route goes on) before it rethrows
                try {
                    target.process(exchange);
                } catch (Exception e) {
                    exchange.setException(e);
                } catch (Error e) {
                    exchange.setException(failure(exchange, e));
                }
                callback.done(true);
                return true;
            }
            AtomicBoolean called = new AtomicBoolean();
            try {
                return processor.process(exchange, sync -> {
                    if (called.compareAndSet(false, true)) {
                        callback.done(sync);
                    }
                });
            } catch (Error e) {
                exchange.setException(failure(exchange, e));
                if (called.compareAndSet(false, true)) {
                    callback.done(true);
                }
                return true;
            }
        }

        private CamelExecutionException failure(Exchange exchange, Error e) {
            return new CamelExecutionException("route step " + step + " failed: " + e, exchange, e);
        }
    }
}
