package io.poimen.memory.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.poimen.memory.security.Access;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.ops.Availability;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.security.audit.AuditLog;
import io.poimen.memory.security.audit.AuditSpool;
import io.poimen.memory.security.AuditedAccess;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.OidcAccessChecks;
import io.poimen.memory.security.policy.PolicyStore;
import io.poimen.memory.security.policy.RbacEngine;
import io.poimen.memory.security.policy.RolePolicy;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.vault.LinkType;
import io.poimen.memory.vault.WikiLink;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.web.servlet.mvc.method.annotation.CapturingSseClient;

/**
 * The live stream shows each subscriber an event as their own access allows (issue 12 item 1, "also on the
 * stream"; security issue item 5: another caller's event whole or not at all): the real oidc-mode access checks
 * over the example vault's policies decide; the subscribers are captured where Spring MVC would write them to the
 * wire.
 */
class AgentStreamAccessTest {
    static final Path VAULT = Path.of("examples/vault").toAbsolutePath();
    static final Caller BOB = caller("bob", "ml-team");
    static final Caller DAVE = caller("dave", "devops-team");
    static final Caller NOBODY = new Caller("nobody", "nobody", null, List.of(), List.of("viewer"), List.of(), false);
    static final String KUBECTL = "projects/poimen/tools/kubectl.md";
    static final String GITOPS = "shared/concepts/gitops.md";
    static final String OBSERVABILITY = "shared/concepts/observability.md";
    static final String GPU = "projects/ml-training/runbooks/gpu-node.md";
    static final String PRIVATE_SKILL = "shared/skills/SKILL-private-debug/SKILL.md";
    @TempDir Path tmp;
    final DefaultCamelContext camel = new DefaultCamelContext();
    final AgentStream stream = new AgentStream(
            new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).findAndRegisterModules(),
            Duration.ofMinutes(5), Duration.ofHours(1));

    static Caller caller(String sub, String group) {
        return new Caller(sub, sub, null, List.of(group), List.of("viewer"), List.of(), false);
    }

    AgentEventAccess access() {
        camel.start();
        // no audit route in this context: decisions go to the spool, as while the database is down
        AuditLog audit = new AuditLog(camel.createProducerTemplate(), new AuditSpool(tmp.resolve("audit.jsonl")),
                new Availability(60_000));
        Path policies = Path.of("policies").toAbsolutePath();
        RbacEngine engine = new RbacEngine(new PolicyStore(VAULT, policies), new RolePolicy(policies));
        AuditedAccess audited = new AuditedAccess(engine, audit);
        // the wiki links of the notes these events name: kubectl.md leads to gitops, nothing leads to observability
        GraphService graph = new GraphService();
        graph.replace(LinkGraph.of(List.of(KUBECTL, GITOPS, OBSERVABILITY, GPU, PRIVATE_SKILL),
                List.of(new WikiLink(KUBECTL, GITOPS, GITOPS, null, null, null, false, LinkType.MEMORY, GITOPS))));
        return new AgentEventAccess(new Access(new OidcAccessChecks(audited, new VaultPathGuard(VAULT)), audited),
                new SearchScopes(graph), () -> graph.current().notes());
    }

    @AfterEach
    void stop() {
        stream.close();
        camel.stop();
    }

    static AgentEvent event(long id, String agentId, Map<String, Object> payload) {
        return new AgentEvent(id, agentId, AgentIds.ownerOf(agentId), "s", "memory_retrieved", payload, Instant.now());
    }

    static Map<String, Object> chunk(String path, String heading, double score) {
        return Map.of("path", path, "heading", heading, "score", score);
    }

    @Test
    void eachSubscriberSeesAnothersEventWholeOrNotAtAllAndTheirOwnWithoutWhatTheyMayNotRead() throws Exception {
        AgentEventAccess access = access();
        CapturingSseClient bob = CapturingSseClient.attach(
                stream.subscribe(access.subscriber(BOB, "t-bob"), null, null, null, 0, List::of));
        CapturingSseClient dave = CapturingSseClient.attach(
                stream.subscribe(access.subscriber(DAVE, "t-dave"), null, null, null, 0, List::of));
        CapturingSseClient nobody = CapturingSseClient.attach(
                stream.subscribe(access.subscriber(NOBODY, "t-nobody"), null, null, null, 0, List::of));

        stream.publish(event(1, "bob/trainer", Map.of("project", "ml-training", "query", "gpu drains",
                "chunks", List.of(chunk(GPU, "Check that the GPU is visible", 0.9)))));
        // dave may read poimen but not the private skill: none of this event, not even its query
        stream.publish(event(2, "charlie/fixer", Map.of("project", "poimen", "query", "pods and private debug",
                "chunks", List.of(chunk(PRIVATE_SKILL, "Private heading", 1.0), chunk(KUBECTL, "kubectl", 0.41)),
                "scores", List.of(1.0, 0.41))));
        // every path readable, but observability is in no scope of poimen (nothing links to it)
        stream.publish(event(3, "charlie/fixer", Map.of("project", "poimen", "query", "dashboards",
                "chunks", List.of(chunk(KUBECTL, "kubectl", 0.9), chunk(OBSERVABILITY, "Dashboards", 0.5)))));
        // every path readable and in dave's scope: shown whole, without charlie's session id
        stream.publish(event(4, "charlie/fixer", Map.of("project", "poimen", "query", "gitops kubectl",
                "chunks", List.of(chunk(KUBECTL, "kubectl", 0.9), chunk(GITOPS, "GitOps", 0.7)),
                "scores", List.of(0.9, 0.7))));
        // a path in free text that dave may not read: the whole event goes
        stream.publish(new AgentEvent(5, "charlie/fixer", "charlie", "s", "tool_result", Map.of("project", "poimen",
                "result", "compare with " + GPU), Instant.now()));
        stream.publish(event(6, "nobody/own", Map.of("note", "mine; see " + GPU)));

        assertThat(bob.text()).contains(GPU, "Check that the GPU is visible").doesNotContain("charlie/fixer");
        assertThat(dave.text()).contains("charlie/fixer", "gitops kubectl", "\"scores\":[0.9,0.7]",
                "\"session_id\":null").doesNotContain("ml-training", "GPU", "Private heading",
                "SKILL-private-debug", "pods and private debug", "0.41", "dashboards", "Dashboards", "compare with",
                "nobody/own");
        assertThat(dave.text().split("event:agent_event", -1)).as(dave.text()).hasSize(2);
        assertThat(nobody.text()).contains("nobody/own", "[path hidden]")
                .doesNotContain("ml-training", "GPU", "charlie/fixer", "kubectl", "Private heading");
    }

    @Test
    void aSubscriberFilterOnABareAgentIdMeansTheirOwnAgent() throws Exception {
        AgentEventAccess access = access();
        CapturingSseClient dave = CapturingSseClient.attach(
                stream.subscribe(access.subscriber(DAVE, "t-dave"), "builder", null, null, 0, List::of));

        stream.publish(event(1, "nobody/builder", Map.of("project", "poimen", "step", "spoofed")));
        stream.publish(event(2, "dave/builder", Map.of("step", "mine")));

        assertThat(dave.text()).contains("dave/builder", "mine").doesNotContain("spoofed");
    }

    /**
     * Issue 27 item 3, the seam between what a resumed subscriber missed and the live events: events the feed hands
     * on while the missed ones are read are held, and each id goes out once, in ascending order, whichever way it
     * came; a hidden event is skipped without breaking the order.
     */
    @Test
    void liveEventsArrivingWhileTheMissedOnesAreSentFollowThemOnceInIdOrder() throws Exception {
        AgentEventAccess access = access();
        Map<String, Object> mine = Map.of("step", "mine");
        CapturingSseClient dave = CapturingSseClient.attach(stream.subscribe(access.subscriber(DAVE, "t-dave"), null,
                null, null, 2, () -> {
                    stream.publish(event(4, "dave/builder", mine));
                    stream.publish(event(5, "bob/trainer", Map.of("project", "ml-training", "step", "hidden")));
                    stream.publish(event(6, "dave/builder", mine));
                    return List.of(event(3, "dave/builder", mine), event(4, "dave/builder", mine),
                            event(5, "bob/trainer", Map.of("project", "ml-training", "step", "hidden")));
                }));

        stream.publish(event(6, "dave/builder", mine));
        stream.publish(event(7, "dave/builder", mine));
        stream.publish(event(2, "dave/builder", mine));

        assertThat(java.util.regex.Pattern.compile("id:(\\d+)").matcher(dave.text()).results()
                .map(m -> Long.parseLong(m.group(1))).toList()).as(dave.text()).containsExactly(3L, 4L, 6L, 7L);
        assertThat(dave.text()).doesNotContain("hidden");
    }
}
