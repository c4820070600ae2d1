package io.poimen.memory.security.auth;

import io.poimen.memory.security.policy.Caller;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.NamedNode;
import org.apache.camel.Route;
import org.apache.camel.spi.RoutePolicy;
import org.apache.camel.spi.RoutePolicyFactory;
import org.apache.camel.support.RoutePolicySupport;

/**
 * Copies the caller and trace id that the servlet filters stored on the HTTP request into exchange properties as
 * soon as an exchange begins a route. It has to happen first: steps such as {@code convertBodyTo} replace the
 * platform-http message (and with it the link to the servlet request) by a plain message.
 */
public class RequestSecurityRoutePolicy extends RoutePolicySupport {

    /** Applies the policy to every route, present and future (routes reloaded from YAML included). */
    public static RoutePolicyFactory factory() {
        RequestSecurityRoutePolicy policy = new RequestSecurityRoutePolicy();
        return new RoutePolicyFactory() {
            @Override
            public RoutePolicy createRoutePolicy(CamelContext camelContext, String routeId, NamedNode route) {
                return policy;
            }
        };
    }

    @Override
    public void onExchangeBegin(Route route, Exchange exchange) {
        if (ExchangeSecurity.request(exchange) == null) {
            return;
        }
        if (exchange.getProperty(ExchangeSecurity.CALLER_PROPERTY) == null
                && ExchangeSecurity.requestAttribute(exchange, CallerFilter.ATTRIBUTE) instanceof Caller caller) {
            exchange.setProperty(ExchangeSecurity.CALLER_PROPERTY, caller);
        }
        ExchangeSecurity.traceId(exchange);
    }
}
