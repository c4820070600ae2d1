package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

class ErrorResponsesTest {

    private static Exchange failedWith(Throwable e) {
        Exchange exchange = new DefaultExchange(new DefaultCamelContext());
        exchange.setProperty(Exchange.EXCEPTION_CAUGHT, e);
        return exchange;
    }

    @Test
    void aDatabaseFailureDeepInTheCauseChainIsStoreUnavailable() {
        Exchange exchange = failedWith(new IllegalStateException("ingest failed",
                new RuntimeException(new DataAccessResourceFailureException("connection refused"))));

        Map<String, Object> body = new ErrorResponses().toBody(exchange);

        assertThat(body).containsEntry("error", "store_unavailable");
        assertThat(exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE)).isEqualTo(503);
    }

    @Test
    void otherFailuresStayInternalErrors() {
        Exchange exchange = failedWith(new IllegalStateException("boom", new NullPointerException()));

        assertThat(new ErrorResponses().toBody(exchange)).containsEntry("error", "internal_error");
        assertThat(exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE)).isEqualTo(500);
    }

    @Test
    void aBodyThatCannotBeReadAsTextIsABadRequest() {
        Exchange exchange = failedWith(new org.apache.camel.StreamCacheException("reader",
                new java.nio.charset.MalformedInputException(1)));

        assertThat(new ErrorResponses().toBody(exchange)).containsEntry("error", "bad_request");
        assertThat(exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE)).isEqualTo(400);
    }
}
