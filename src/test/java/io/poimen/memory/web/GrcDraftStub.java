package io.poimen.memory.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Test-only answer of {@code POST /memory/grc/draft} for branches without the GRC route: the documented shape
 * {@code {branch, pr_url, pr_number, draft_id}}, and a record of each request so tests see what the UI sent.
 */
public class GrcDraftStub {
    static final String ROUTE = """
            # test only: stands in for the GRC route on branches that do not have it yet
            - rest:
                id: grc-stub-api
                path: /memory/grc
                post:
                  - id: grc-stub-draft
                    path: /draft
                    to: direct:grc-stub-draft
            - route:
                id: grc-stub-draft
                from:
                  uri: direct:grc-stub-draft
                  steps:
                    - convertBodyTo:
                        type: byte[]
                    - bean:
                        ref: grcDraftStub
                        method: draft
                    - marshal:
                        json:
                          library: Jackson
                    - setHeader:
                        name: Content-Type
                        constant: application/json
            """;

    private final ObjectMapper json = new ObjectMapper();
    private final List<Map<String, Object>> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger next = new AtomicInteger(41);

    @SuppressWarnings("unchecked")
    public Map<String, Object> draft(byte[] body) throws IOException {
        Map<String, Object> request = json.readValue(body, Map.class);
        requests.add(request);
        int pr = next.incrementAndGet();
        String branch = "edit/local/" + String.valueOf(request.get("document_path")).replaceAll("[^a-z0-9]+", "-")
                + "-" + pr;
        return Map.of("branch", branch, "pr_url", "http://forgejo.test/team/vault/pulls/" + pr, "pr_number", pr,
                "draft_id", "draft-" + pr);
    }

    public List<Map<String, Object>> requests() {
        return requests;
    }

    @TestConfiguration
    public static class Config {
        @Bean
        GrcDraftStub grcDraftStub() {
            return new GrcDraftStub();
        }
    }
}
