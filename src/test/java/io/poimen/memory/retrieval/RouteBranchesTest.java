package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.Branch;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.Test;

/** The branches are read from the route model: the multicast's targets whose routes name a branch. */
class RouteBranchesTest {
    static final Path QUERY_ROUTE = Path.of("routes/query.camel.yaml");

    private static List<RouteBranches.Wired> wired(String yaml) throws Exception {
        try (CamelContext camel = new DefaultCamelContext()) {
            PluginHelper.getRoutesLoader(camel).loadRoutes(ResourceHelper.fromString("query.camel.yaml", yaml));
            return new RouteBranches().wired(camel, "memory-query");
        }
    }

    @Test
    void theShippedRouteWiresTheThreeBranchesInItsOrder() throws Exception {
        assertThat(wired(Files.readString(QUERY_ROUTE)))
                .containsExactly(new RouteBranches.Wired(Branch.TFIDF, 0), new RouteBranches.Wired(Branch.SEMANTIC, 1),
                        new RouteBranches.Wired(Branch.LEXICAL, 2));
    }

    @Test
    void droppingAToLineDropsTheBranchAndKeepsThePositionsOfTheOthers() throws Exception {
        String yaml = Files.readString(QUERY_ROUTE).replace("              - to: direct:branch-tfidf\n", "");
        assertThat(wired(yaml)).containsExactly(new RouteBranches.Wired(Branch.SEMANTIC, 0),
                new RouteBranches.Wired(Branch.LEXICAL, 1));
    }

    @Test
    void aTargetWhoseRouteNamesNoBranchIsNotABranch() throws Exception {
        String yaml = Files.readString(QUERY_ROUTE).replace("              - to: direct:branch-lexical\n",
                "              - to: direct:branch-lexical\n              - to: direct:audit-copy\n")
                + "\n- route:\n    id: audit-copy\n    from:\n      uri: direct:audit-copy\n      steps:\n"
                + "        - log: copy\n";
        assertThat(wired(yaml)).extracting(RouteBranches.Wired::branch)
                .containsExactly(Branch.TFIDF, Branch.SEMANTIC, Branch.LEXICAL);
        assertThat(new RouteBranches().wired(new DefaultCamelContext(), "memory-query")).isEmpty();
    }

    private static String branchRoute(String name) {
        return "- route:\n    id: branch-" + name + "\n    from:\n      uri: direct:branch-" + name + "\n      steps:\n"
                + "        - setProperty:\n            name: poimenBranch\n            constant: " + name + "\n"
                + "        - log: " + name + "\n";
    }

    /**
     * Read once per route load: the same read while no route comes or goes; a branch route added later (its own
     * file) counts from the next call, and so does a reloaded query route.
     */
    @Test
    void readOncePerRouteLoadAndAgainWhenARouteIsAddedOrRemoved() throws Exception {
        String query = "- route:\n    id: memory-query\n    from:\n      uri: direct:query\n      steps:\n"
                + "        - multicast:\n            steps:\n              - to: direct:branch-tfidf\n"
                + "              - to: direct:branch-lexical\n";
        RouteBranches branches = new RouteBranches();
        try (CamelContext camel = new DefaultCamelContext()) {
            camel.getManagementStrategy().addEventNotifier(branches);
            PluginHelper.getRoutesLoader(camel).loadRoutes(ResourceHelper.fromString("q.camel.yaml",
                    query + branchRoute("tfidf")));
            camel.start();
            List<RouteBranches.Wired> first = branches.wired(camel, "memory-query");
            assertThat(first).containsExactly(new RouteBranches.Wired(Branch.TFIDF, 0));
            assertThat(branches.wired(camel, "memory-query")).as("not read again").isSameAs(first);

            PluginHelper.getRoutesLoader(camel).loadRoutes(ResourceHelper.fromString("lexical.camel.yaml",
                    branchRoute("lexical")));
            assertThat(branches.wired(camel, "memory-query")).containsExactly(
                    new RouteBranches.Wired(Branch.TFIDF, 0), new RouteBranches.Wired(Branch.LEXICAL, 1));

            camel.getRouteController().stopRoute("memory-query");
            camel.removeRoute("memory-query");
            PluginHelper.getRoutesLoader(camel).loadRoutes(ResourceHelper.fromString("q2.camel.yaml",
                    query.replace("              - to: direct:branch-tfidf\n", "")));
            assertThat(branches.wired(camel, "memory-query")).containsExactly(new RouteBranches.Wired(Branch.LEXICAL, 0));
        }
    }
}
