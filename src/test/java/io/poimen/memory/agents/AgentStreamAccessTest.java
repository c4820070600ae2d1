package io.poimen.memory.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.poimen.memory.ops.Availability;
import io.poimen.memory.security.AuditLog;
import io.poimen.memory.security.AuditSpool;
import io.poimen.memory.security.AuditedAccess;
import io.poimen.memory.security.Caller;
import io.poimen.memory.security.OidcAccessChecks;
import io.poimen.memory.security.PolicyStore;
import io.poimen.memory.security.RbacEngine;
import io.poimen.memory.security.RolePolicy;
import io.poimen.memory.security.VaultPathGuard;
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
 * stream"): the real oidc-mode access checks over the example vault's policies decide; the subscribers are
 * captured where Spring MVC would write them to the wire.
 */
class AgentStreamAccessTest {
    static final Path VAULT = Path.of("examples/vault").toAbsolutePath();
    static final Caller BOB = caller("bob", "ml-team");
    static final Caller DAVE = caller("dave", "devops-team");
    static final Caller NOBODY = new Caller("nobody", "nobody", null, List.of(), List.of("viewer"), List.of(), false);
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
        return new AgentEventAccess(new OidcAccessChecks(new AuditedAccess(engine, audit), new VaultPathGuard(VAULT)),
                java.util.Set::of);
    }

    @AfterEach
    void stop() {
        stream.close();
        camel.stop();
    }

    static AgentEvent event(long id, String agentId, Map<String, Object> payload) {
        return new AgentEvent(id, agentId, AgentIds.ownerOf(agentId), "s", "memory_retrieved", payload, Instant.now());
    }

    @Test
    void eachSubscriberSeesOnlyWhatTheyMayRead() throws Exception {
        AgentEventAccess access = access();
        CapturingSseClient bob = CapturingSseClient.attach(stream.subscribe(access.viewer(BOB, "t-bob"), null, null));
        CapturingSseClient dave = CapturingSseClient.attach(stream.subscribe(access.viewer(DAVE, "t-dave"), null, null));
        CapturingSseClient nobody = CapturingSseClient.attach(
                stream.subscribe(access.viewer(NOBODY, "t-nobody"), null, null));

        stream.publish(event(1, "bob/trainer", Map.of("project", "ml-training", "query", "gpu drains",
                "chunks", List.of(Map.of("path", "projects/ml-training/runbooks/gpu-node.md",
                        "heading", "Check that the GPU is visible", "score", 0.9)))));
        stream.publish(event(2, "charlie/fixer", Map.of("project", "poimen", "query", "pods",
                "chunks", List.of(Map.of("path", "projects/poimen/tools/kubectl.md", "heading", "kubectl", "score", 0.9),
                        Map.of("path", "shared/skills/SKILL-private-debug/SKILL.md", "heading", "Private heading",
                                "score", 0.8)),
                "scores", List.of(0.9, 0.8))));
        stream.publish(event(3, "nobody/own", Map.of("note", "mine; see projects/ml-training/runbooks/gpu-node.md")));

        assertThat(bob.text()).contains("projects/ml-training/runbooks/gpu-node.md", "Check that the GPU is visible")
                .doesNotContain("charlie/fixer");
        assertThat(dave.text()).contains("charlie/fixer", "projects/poimen/tools/kubectl.md", "\"scores\":[0.9]")
                .doesNotContain("ml-training", "GPU", "Private heading", "SKILL-private-debug", "nobody/own");
        assertThat(nobody.text()).contains("nobody/own", "[path hidden]")
                .doesNotContain("ml-training", "GPU", "charlie/fixer", "kubectl", "Private heading");
    }

    @Test
    void aSubscriberFilterOnABareAgentIdMeansTheirOwnAgent() throws Exception {
        AgentEventAccess access = access();
        CapturingSseClient dave = CapturingSseClient.attach(
                stream.subscribe(access.viewer(DAVE, "t-dave"), "builder", null));

        stream.publish(event(1, "nobody/builder", Map.of("project", "poimen", "step", "spoofed")));
        stream.publish(event(2, "dave/builder", Map.of("step", "mine")));

        assertThat(dave.text()).contains("dave/builder", "mine").doesNotContain("spoofed");
    }
}
