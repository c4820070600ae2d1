package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.Branch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.model.Model;
import org.apache.camel.model.MulticastDefinition;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.model.SetPropertyDefinition;
import org.apache.camel.model.ToDefinition;
import org.apache.camel.model.language.ConstantExpression;
import org.apache.camel.support.EventNotifierSupport;

/**
 * The branches a route's multicast wires, read from the route model once per route load: a route added or removed
 * (a reloaded route file removes and adds its routes) forgets what was read, so an edited route file counts from
 * its next query on, and a query reads no model and takes no lock. A branch is a multicast target
 * ({@code - to: direct:x}) whose route names itself with {@code setProperty poimenBranch} as a constant; other
 * targets are not branches. Registered as Camel event notifier (a Spring bean of that type).
 */
public class RouteBranches extends EventNotifierSupport {
    private static final java.util.regex.Pattern SCHEME_SLASHES =
            java.util.regex.Pattern.compile("^([a-zA-Z0-9+.-]+):/+");

    /** One wired branch and its position among the multicast's outputs (from 0, as the multicast counts them). */
    public record Wired(Branch branch, int position) {
    }

    /** What was read for a route, valid while that route instance runs and no route was added or removed since. */
    private record Read(Route route, List<Wired> wired) {
    }

    /** Replaced (not cleared) on every route event: a read that started before the event lands in the old map. */
    private volatile Map<String, Read> reads = new ConcurrentHashMap<>();

    public RouteBranches() {
        setIgnoreCamelContextEvents(true);
        setIgnoreExchangeEvents(true);
        setIgnoreServiceEvents(true);
        setIgnoreStepEvents(true);
    }

    @Override
    public boolean isEnabled(CamelEvent event) {
        return event instanceof CamelEvent.RouteAddedEvent || event instanceof CamelEvent.RouteRemovedEvent;
    }

    @Override
    public void notify(CamelEvent event) {
        reads = new ConcurrentHashMap<>();
    }

    /** The branches the multicasts of route {@code routeId} send to, in their order; empty for an unknown route. */
    public List<Wired> wired(CamelContext camel, String routeId) {
        Map<String, Read> known = reads;
        Route route = camel.getRoute(routeId);
        Read read = known.get(routeId);
        if (read == null || read.route() != route) {
            read = new Read(route, fromModel(camel, routeId));
            known.put(routeId, read);
        }
        return read.wired();
    }

    private static List<Wired> fromModel(CamelContext camel, String routeId) {
        Model model = camel.getCamelContextExtension().getContextPlugin(Model.class);
        List<RouteDefinition> routes;
        synchronized (model) { // a reload removes and adds definitions under this lock
            routes = new ArrayList<>(model.getRouteDefinitions());
        }
        RouteDefinition route = routes.stream().filter(r -> r.getRouteId().equals(routeId)).findFirst().orElse(null);
        List<Wired> out = new ArrayList<>();
        if (route != null) {
            collect(route.getOutputs(), routes, out);
        }
        return List.copyOf(out);
    }

    private static void collect(List<ProcessorDefinition<?>> steps, List<RouteDefinition> routes, List<Wired> out) {
        for (ProcessorDefinition<?> step : steps) {
            if (step instanceof MulticastDefinition multicast) {
                List<ProcessorDefinition<?>> targets = multicast.getOutputs();
                for (int i = 0; i < targets.size(); i++) {
                    if (targets.get(i) instanceof ToDefinition to) {
                        Branch b = branchOf(consumerOf(to.getUri(), routes));
                        int position = i;
                        if (b != null && out.stream().noneMatch(w -> w.branch() == b)) {
                            out.add(new Wired(b, position));
                        }
                    }
                }
            } else {
                collect(step.getOutputs(), routes, out);
            }
        }
    }

    private static RouteDefinition consumerOf(String uri, List<RouteDefinition> routes) {
        String target = plain(uri);
        return routes.stream().filter(r -> r.getInput() != null && plain(r.getInput().getUri()).equals(target))
                .findFirst().orElse(null);
    }

    private static String plain(String uri) {
        return uri == null ? "" : SCHEME_SLASHES.matcher(uri).replaceFirst("$1:").trim();
    }

    private static Branch branchOf(RouteDefinition route) {
        if (route == null) {
            return null;
        }
        for (ProcessorDefinition<?> step : route.getOutputs()) {
            if (step instanceof SetPropertyDefinition set && BranchSearches.BRANCH.equals(set.getName())
                    && set.getExpression() instanceof ConstantExpression c) {
                return Branch.ofKey(c.getExpression());
            }
        }
        return null;
    }
}
