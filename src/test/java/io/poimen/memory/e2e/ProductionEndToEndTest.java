package io.poimen.memory.e2e;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.grc.GrcTestSupport;
import io.poimen.memory.grc.WebhookSignature;
import io.poimen.memory.mcp.McpClients;
import io.poimen.memory.testsupport.Browsers;
import io.poimen.memory.testsupport.TestKeycloak;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.MergeCommand;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The production shape end to end, as a user lives it: the hub on the {@code prod} profile (PostgreSQL + pgvector,
 * a real OpenSearch node, oidc mode) with Keycloak as the identity provider (the realm of
 * {@code examples/keycloak/poimen-realm.json}), WireMock as Forgejo's API and a bare git repository as the vault
 * remote, driven through headless Chromium. charlie logs in on Keycloak's login page → browses a project → searches
 * (breakdown) → edits a note → submits it for review (a PR is opened) → merge in the remote → signed webhook → the
 * edited text is searchable (target 2 s; the time is printed) → the agent workspace shows an agent's retrieval live.
 * An MCP client with a client-credentials token of the agents' client searches and reads; alice (no access) gets
 * nothing. Then the UI renews the token with the refresh token and keeps working after the first token expired
 * (the agent workspace's stream, opened with the first token and ended by the hub at its expiry, reopens with the
 * renewed one and still shows events live),
 * the user logs out through Keycloak's end-session endpoint (the session is gone there too), pastes a token
 * instead, and a reload forgets it. Last, merge-webhook→searchable is measured over 10 merges and printed
 * (p50/max). Another test rotates Keycloak's signing key while this hub runs.
 */
@ActiveProfiles("prod")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.data.dir=target/it-e2e/data-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S",
        // a removed signing key stops working within seconds, an expired token at once (same clock as Keycloak)
        "poimen.security.jwks-cache-ttl=5s",
        "poimen.security.jwks-refetch-interval=2s",
        "poimen.security.clock-skew=1s",
        "poimen.webhook.secret=" + ProductionEndToEndTest.SECRET})
class ProductionEndToEndTest {
    static final String SECRET = "e2e-webhook-secret";
    /** Lifetime of the UI client's access tokens in the realm file: short, so the UI renews one in the scenario. */
    static final long TOKEN_SECONDS = 60;
    static final Path ROOT = Path.of("target/it-e2e/git-" + UUID.randomUUID()).toAbsolutePath();
    static final Path REMOTE = ROOT.resolve("remote.git");
    static final WireMockServer FORGEJO = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort int port;

    @DynamicPropertySource
    static void productionStack(DynamicPropertyRegistry registry) throws Exception {
        String db = TestPostgres.freshDatabaseUrl("e2e");
        registry.add("spring.datasource.url", () -> db);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
        registry.add("poimen.opensearch.index", () -> "e2e-" + ProcessHandle.current().pid());
        registry.add("poimen.security.issuer-uri", TestKeycloak::issuer);
        GrcTestSupport.gitRemoteAndForgejo(registry, ROOT, FORGEJO);
    }

    @AfterAll
    static void stop() {
        FORGEJO.stop();
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    /** The agents' client (client credentials): its service account is in platform-team with role editor. */
    static String agentToken() {
        return TestKeycloak.agentToken();
    }

    /** A claim of a JWT's payload, or its header's {@code kid} (as Keycloak wrote them; the hub checks them). */
    static String claim(String jwt, String name) throws Exception {
        return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1])).path(name).asText();
    }

    static String kid(String jwt) throws Exception {
        return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[0])).path("kid").asText();
    }

    @Test
    void aUserLogsInEditsThroughReviewAndTheMergedTextIsSearchable(@TempDir Path profile) throws Exception {
        TestKeycloak.allowHub(base());
        ChromeDriver browser = Browsers.start(profile);
        try {
            new Scenario(browser).run();
        } finally {
            browser.quit();
        }
        measureMergeToSearchable();
    }

    final class Scenario {
        final ChromeDriver browser;
        final WebDriverWait wait;

        Scenario(ChromeDriver browser) {
            this.browser = browser;
            this.wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        }

        WebElement visible(String css) {
            return wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
        }

        void run() throws Exception {
            String expiresAt = logIn();
            checkPolicyAndRendering();
            browse();
            search();
            String branch = editAndSubmit();
            String merge = mergeInTheRemote(branch);
            webhookMakesTheEditSearchable(branch, merge);
            agentRetrievalShowsLive();
            mcpActsAsTheBearer();
            renewsAndLogsOut(expiresAt);
        }

        /** The UI's login button → Keycloak's login page in a popup → back with a token in memory. */
        String logIn() {
            browser.get(base() + "/");
            visible("#login-button");
            assertThat(new Select(browser.findElement(By.id("project-select"))).getOptions())
                    .as("nothing of the vault before the log-in").isEmpty();
            String main = browser.getWindowHandle();
            browser.findElement(By.id("login-button")).click();
            wait.until(d -> d.getWindowHandles().size() == 2);
            browser.getWindowHandles().stream().filter(h -> !h.equals(main)).findFirst()
                    .ifPresent(h -> browser.switchTo().window(h));
            assertThat(browser.getCurrentUrl()).startsWith(TestKeycloak.issuer() + "/protocol/openid-connect/auth")
                    .contains("code_challenge_method=S256", "code_challenge=", "client_id=poimen-memory");
            visible("#username").sendKeys("charlie");
            browser.findElement(By.id("password")).sendKeys("charlie");
            browser.findElement(By.id("kc-login")).click();
            wait.until(d -> d.getWindowHandles().size() == 1);
            browser.switchTo().window(main);
            wait.until(ExpectedConditions.textToBe(By.id("auth-user"), "charlie"));
            assertThat(browser.findElement(By.id("logout-button")).isDisplayed()).isTrue();
            assertThat(browser.findElement(By.id("login-button")).isDisplayed()).isFalse();
            Object stored = ((JavascriptExecutor) browser).executeScript(
                    "return JSON.stringify([Object.assign({}, localStorage), Object.assign({}, sessionStorage), document.cookie])");
            assertThat(String.valueOf(stored)).as("no token in web storage or cookies").doesNotContain("eyJ");
            return browser.findElement(By.id("auth-user")).getDomAttribute("data-expires-at");
        }

        /** The Content-Security-Policy holds in the browser, and note markup cannot break out of attributes. */
        void checkPolicyAndRendering() {
            JavascriptExecutor js = browser;
            Object inline = js.executeScript("const s = document.createElement('script');"
                    + "s.textContent = 'window.__inlineRan = true'; document.head.appendChild(s);"
                    + "return window.__inlineRan === true");
            assertThat(inline).as("inline script blocked by the CSP").isEqualTo(false);
            @SuppressWarnings("unchecked")
            List<Object> rendered = (List<Object>) js.executeAsyncScript("const done = arguments[0];"
                    + "import('/js/markdown.js').then(m => { const d = document.createElement('div');"
                    + "d.innerHTML = m.renderMarkdown('![a #tag x](u) and ![r](https://tracker.example/p.png)');"
                    + "done([d.querySelector('img').getAttribute('alt'), d.querySelectorAll('img').length,"
                    + "d.querySelector('a.remote-image').getAttribute('href')]); })");
            assertThat(rendered).containsExactly("a #tag x", 1L, "https://tracker.example/p.png");
        }

        void browse() {
            wait.until(d -> new Select(d.findElement(By.id("project-select"))).getOptions().size() > 1);
            Select projects = new Select(browser.findElement(By.id("project-select")));
            assertThat(projects.getOptions()).extracting(o -> o.getDomAttribute("value"))
                    .contains("poimen").doesNotContain("ml-training");
            projects.selectByValue("poimen");
            visible("#tree a[data-path='projects/poimen/tools/kubectl.md']").click();
            wait.until(ExpectedConditions.textToBe(By.id("note-title"), "kubectl debugging commands"));
            assertThat(browser.findElements(By.cssSelector("#preview h2"))).isNotEmpty();
        }

        void search() {
            WebElement box = browser.findElement(By.id("search-input"));
            box.clear();
            box.sendKeys("pod keeps restarting with CrashLoopBackOff");
            browser.findElement(By.id("search-button")).click();
            WebElement first = visible("#search-results li.result");
            assertThat(first.findElement(By.cssSelector(".result-link")).getText()).startsWith("projects/poimen/");
            WebElement breakdown = first.findElement(By.cssSelector(".breakdown"));
            assertThat(breakdown.findElements(By.cssSelector(".branch-row"))).extracting(r -> r.getDomAttribute("data-branch"))
                    .containsExactly("semantic", "lexical", "tfidf");
            assertThat(breakdown.findElements(By.cssSelector(".branch-row:not(.missing) .fill")))
                    .isNotEmpty().allSatisfy(f -> assertThat(f.getDomAttribute("style")).matches("width: \\d+(\\.\\d+)?%;"));
        }

        String editAndSubmit() throws Exception {
            browser.get(base() + "/#/note/projects/poimen/tools/helm.md");
            wait.until(d -> !d.findElement(By.id("note-title")).getText().isBlank());
            visible("#edit-button").click();
            WebElement editor = visible("#editor");
            editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.END), // the caret starts at the top
                    "\n\n## Canary rollout\n\nPass the flamingo canary gate before promoting a release.\n");
            WebElement message = browser.findElement(By.id("edit-message"));
            message.clear();
            message.sendKeys("Add canary rollout");
            FORGEJO.resetAll();
            GrcTestSupport.pullRequestsOpenAs(FORGEJO, 7);
            browser.findElement(By.id("submit-review")).click();
            assertThat(visible("#pr-link").getText()).isEqualTo("Pull request #7");
            FORGEJO.verify(1, postRequestedFor(urlPathEqualTo(GrcTestSupport.PULLS)));
            String branch = browser.findElement(By.cssSelector("#review-result code")).getText();
            try (Git remote = Git.open(REMOTE.toFile())) {
                assertThat(remote.getRepository().resolve("refs/heads/" + branch)).as("branch pushed").isNotNull();
            }
            assertThat(query(agentToken(), "flamingo canary gate")).as("not searchable before the merge")
                    .doesNotContain("flamingo");
            return branch;
        }

        /** A reviewer merges the pull request in Forgejo: a merge commit of the branch on main in the remote. */
        String mergeInTheRemote(String branch) throws Exception {
            try (Git git = Git.cloneRepository().setURI(REMOTE.toString())
                    .setDirectory(ROOT.resolve("reviewer-" + UUID.randomUUID()).toFile()).setBranch("main").call()) {
                git.merge().include(git.getRepository().resolve("refs/remotes/origin/" + branch))
                        .setFastForward(MergeCommand.FastForwardMode.NO_FF).setMessage("Merge pull request #7").call();
                git.push().setRemote("origin").add("main").call();
                return git.getRepository().resolve("refs/heads/main").getName();
            }
        }

        void webhookMakesTheEditSearchable(String branch, String merge) throws Exception {
            String body = """
                    {"action":"closed","number":7,"pull_request":{"number":7,"state":"closed","merged":true,
                     "merge_commit_sha":"%s","head":{"ref":"%s"},"base":{"ref":"main"}}}""".formatted(merge, branch);
            long t0 = System.nanoTime();
            HttpResponse<String> hook = webhook("pull_request", body);
            assertThat(hook.statusCode()).as(hook.body()).isEqualTo(202);
            String token = agentToken();
            // the 2 s target is a speed figure: measured and printed below (measureMergeToSearchable), not raced here
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> query(token, "flamingo canary gate").contains("flamingo canary gate"));
            System.out.printf("e2e: merge webhook → edited text searchable in %d ms%n",
                    (System.nanoTime() - t0) / 1_000_000);
        }

        /** An agent's MCP search (in project poimen) shows up in the user's open agent workspace as it happens. */
        void agentRetrievalShowsLive() throws Exception {
            browser.findElement(By.id("tab-agents")).click();
            wait.until(ExpectedConditions.textToBe(By.id("stream-status"), "live"));
            String token = agentToken();
            try (McpSyncClient agent = McpClients.connect(base(), token)) {
                McpSchema.CallToolResult r = agent.callTool(new McpSchema.CallToolRequest("search_memory",
                        Map.of("project", "poimen", "query", "how do I promote a helm release safely", "top_k", 3)));
                assertThat(r.isError()).as(McpClients.text(r)).isFalse();
            }
            // this search's own event (the log may hold other retrievals): the one naming its query
            WebElement event = wait.until(ExpectedConditions.visibilityOfElementLocated(By.xpath(
                    "//li[contains(@class,'agent-event') and @data-type='memory_retrieved']"
                            + "[.//div[@class='q' and contains(., 'how do I promote a helm release safely')]]")));
            assertThat(event.getText()).contains("how do I promote a helm release safely",
                    claim(token, "sub") + "/test-agent");
            assertThat(event.findElements(By.cssSelector(".chunks li"))).isNotEmpty();
        }

        void mcpActsAsTheBearer() throws Exception {
            McpSchema.CallToolRequest search = new McpSchema.CallToolRequest("search_memory",
                    Map.of("project", "poimen", "query", "flamingo canary gate", "top_k", 3));
            McpSchema.CallToolRequest read = new McpSchema.CallToolRequest("read_note",
                    Map.of("path", "projects/poimen/tools/helm.md"));
            String agent = agentToken();
            assertThat(claim(agent, "azp")).isEqualTo(TestKeycloak.AGENT_CLIENT);
            try (McpSyncClient agentClient = McpClients.connect(base(), agent);
                 McpSyncClient alice = McpClients.connect(base(), TestKeycloak.userToken("alice"))) {
                McpSchema.CallToolResult found = agentClient.callTool(search);
                assertThat(found.isError()).isFalse();
                assertThat(McpClients.text(found)).contains("flamingo canary gate", "projects/poimen/tools/helm.md");
                McpSchema.CallToolResult note = agentClient.callTool(read);
                assertThat(note.isError()).isFalse();
                assertThat(McpClients.text(note)).contains("## Canary rollout");

                McpSchema.CallToolResult none = alice.callTool(search);
                assertThat(none.isError()).isTrue();
                assertThat(McpClients.text(none)).contains("403").doesNotContain("flamingo", "helm.md");
                McpSchema.CallToolResult closed = alice.callTool(read);
                assertThat(closed.isError()).isTrue();
                assertThat(McpClients.text(closed)).doesNotContain("flamingo", "Canary rollout");
            }
        }

        /**
         * The agent workspace's stream was opened with the first token, and the hub ends a stream whose token it no
         * longer accepts: the UI follows with the renewed token, so an event after the first token's end (its exp
         * plus the hub's 1 s clock skew) still arrives live.
         */
        void agentWorkspaceOutlivesTheFirstToken(long firstExpiryMillis) throws Exception {
            browser.findElement(By.id("tab-agents")).click();
            await().atMost(Duration.ofSeconds(TOKEN_SECONDS + 60))
                    .until(() -> System.currentTimeMillis() > firstExpiryMillis + 2_000);
            assertThat(HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/memory/agents/events"))
                    .header("Authorization", "Bearer " + agentToken()).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("""
                            {"agent_id":"after-renewal","type":"agent_decision",
                             "payload":{"project":"poimen","reasoning":"after the first token ended"}}"""))
                    .build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(201);
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.xpath("//li[contains(@class,'agent-event')]"
                    + "[contains(., 'after the first token ended')]")));
            wait.until(ExpectedConditions.textToBe(By.id("stream-status"), "live"));
        }

        /**
         * The token is renewed (refresh grant at Keycloak) before it ends, and the UI keeps working once the first
         * token has expired; then the user logs out, at Keycloak too (end-session endpoint).
         */
        void renewsAndLogsOut(String firstExpiry) throws Exception {
            wait.withTimeout(Duration.ofSeconds(TOKEN_SECONDS + 60)).until(d ->
                    !firstExpiry.equals(d.findElement(By.id("auth-user")).getDomAttribute("data-expires-at")));
            assertThat(browser.findElement(By.id("auth-user")).getText()).isEqualTo("charlie");
            // past the first token's end (and the hub's 1 s skew) only the renewed token opens the vault
            Instant firstEnd = Instant.ofEpochMilli(Long.parseLong(firstExpiry)).plusSeconds(2);
            await().atMost(Duration.ofSeconds(TOKEN_SECONDS + 30)).until(() -> Instant.now().isAfter(firstEnd));
            assertThat(browser.findElement(By.id("auth-user")).getText()).as("still logged in").isEqualTo("charlie");
            assertThat(Long.parseLong(browser.findElement(By.id("auth-user")).getDomAttribute("data-expires-at")))
                    .as("the token in use now is a renewed one").isGreaterThan(Instant.now().toEpochMilli());
            agentWorkspaceOutlivesTheFirstToken(Long.parseLong(firstExpiry));
            browser.findElement(By.id("tab-browse")).click();
            new Select(browser.findElement(By.id("project-select"))).selectByValue("rust-guide");
            new Select(browser.findElement(By.id("project-select"))).selectByValue("poimen");
            visible("#tree a[data-path='projects/poimen/tools/kubectl.md']").click();
            wait.until(ExpectedConditions.textToBe(By.id("note-title"), "kubectl debugging commands"));

            assertThat(TestKeycloak.sessions("charlie")).as("charlie's session at Keycloak").isNotEmpty();
            browser.findElement(By.id("logout-button")).click();
            visible("#login-button");
            // the end-session popup comes back to the callback page, which closes it
            wait.until(d -> d.getWindowHandles().size() == 1);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(TestKeycloak.sessions("charlie")).as("charlie's session at Keycloak").isEmpty());
            assertThat(browser.findElement(By.id("auth-user")).isDisplayed()).isFalse();
            assertThat(new Select(browser.findElement(By.id("project-select"))).getOptions()).isEmpty();
            assertThat(browser.findElements(By.cssSelector("#tree a"))).isEmpty();

            // pasting a token (as agents and scripts do) still works
            browser.findElement(By.id("auth-summary")).click();
            visible("#token-input").sendKeys(agentToken());
            browser.findElement(By.id("token-save")).click();
            wait.until(ExpectedConditions.textToBe(By.id("auth-user"), "service-account-poimen-agent"));
            wait.until(d -> new Select(d.findElement(By.id("project-select"))).getOptions().size() > 1);

            browser.get(base() + "/#/note/projects/poimen/tools/kubectl.md");
            // only the fragment changed, so that was no reload; a reload starts a new page: memory is empty, so
            // the user logs in again
            browser.navigate().refresh();
            visible("#login-button");
            assertThat(browser.findElement(By.id("auth-user")).isDisplayed()).isFalse();
        }
    }

    /**
     * Keycloak's signing key rotates while the hub runs (its admin REST API): a new RSA key of higher priority signs
     * the new tokens, which the hub accepts (their unknown kid makes it fetch the keys again); tokens signed with the
     * old key still pass while Keycloak publishes it; once the old key is removed they get 401 (at the latest after
     * the hub's JWKS cache lifetime, 5 s here) although they have not expired, and the new ones still 200.
     */
    @Test
    void theSigningKeyRotatesWhileTheHubRuns() throws Exception {
        String before = agentToken();
        assertThat(projects(before).statusCode()).isEqualTo(200);
        String oldKid = kid(before);
        JsonNode oldKey = null;
        for (JsonNode key : TestKeycloak.admin("GET", "/keys", null).path("keys")) {
            if (key.path("kid").asText().equals(oldKid)) {
                oldKey = key;
            }
        }
        assertThat(oldKey).as("Keycloak's key %s", oldKid).isNotNull();
        TestKeycloak.admin("POST", "/components", Map.of("name", "rotated-" + UUID.randomUUID(),
                "providerId", "rsa-generated", "providerType", "org.keycloak.keys.KeyProvider",
                "parentId", TestKeycloak.admin("GET", "", null).path("id").asText(),
                "config", Map.of("priority", List.of(String.valueOf(oldKey.path("providerPriority").asLong() + 100)))));

        String after = agentToken();
        String newKid = kid(after);
        assertThat(newKid).as("new tokens are signed with the new key").isNotEqualTo(oldKid);
        // bounds for a loaded machine, and for a limit on how often the hub may fetch the keys
        await().atMost(Duration.ofSeconds(120)).untilAsserted(() ->
                assertThat(projects(after).statusCode()).as("a token of the new key").isEqualTo(200));
        assertThat(projects(before).statusCode()).as("a token of the old key while it is published").isEqualTo(200);

        TestKeycloak.admin("DELETE", "/components/" + oldKey.path("providerId").asText(), null);
        assertThat(publishedKids()).contains(newKid).doesNotContain(oldKid);
        await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> {
            HttpResponse<String> refused = projects(before);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(401);
            assertThat(JSON.readTree(refused.body()).path("error").asText()).isEqualTo("unauthorized");
        });
        assertThat(Instant.ofEpochSecond(Long.parseLong(claim(before, "exp")))).as("refused for its key, not its age")
                .isAfter(Instant.now());
        assertThat(projects(after).statusCode()).isEqualTo(200);
    }

    HttpResponse<String> projects(String token) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/memory/projects"))
                .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    List<String> publishedKids() throws Exception {
        HttpResponse<String> jwks = HTTP.send(HttpRequest.newBuilder(
                URI.create(TestKeycloak.issuer() + "/protocol/openid-connect/certs")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        List<String> kids = new ArrayList<>();
        JSON.readTree(jwks.body()).path("keys").forEach(k -> kids.add(k.path("kid").asText()));
        return kids;
    }

    HttpResponse<String> webhook(String event, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/memory/webhooks/forgejo"))
                .header("Content-Type", "application/json").header("X-Forgejo-Event", event)
                .header("X-Forgejo-Delivery", UUID.randomUUID().toString())
                .header("X-Forgejo-Signature", WebhookSignature.sign(SECRET, body.getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The texts of the results of a query in project poimen, as one string. */
    String query(String token, String text) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/memory/query"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(
                        Map.of("project", "poimen", "query", text, "top_k", 5)))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        StringBuilder texts = new StringBuilder();
        for (JsonNode result : JSON.readTree(r.body()).path("results")) {
            texts.append(result.path("path").asText()).append('\n').append(result.path("text").asText()).append('\n');
        }
        return texts.toString();
    }

    /** Ten merges (a commit on main in the remote) each announced by a signed push webhook; time to searchable. */
    void measureMergeToSearchable() throws Exception {
        String token = agentToken();
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String word = "okapi" + i + "x" + UUID.randomUUID().toString().substring(0, 6);
            String commit;
            try (Git git = Git.cloneRepository().setURI(REMOTE.toString())
                    .setDirectory(ROOT.resolve("bench-" + i).toFile()).setBranch("main").call()) {
                Path note = ROOT.resolve("bench-" + i).resolve("projects/poimen/runbooks/bench-" + i + ".md");
                Files.createDirectories(note.getParent());
                Files.writeString(note, "# Bench " + i + "\n\nThe " + word + " checklist runs before each rollout.\n");
                git.add().addFilepattern(".").call();
                PersonIdent mate = new PersonIdent("Mate", "mate@example.org");
                commit = git.commit().setMessage("Bench " + i).setAuthor(mate).setCommitter(mate).call().getName();
                git.push().setRemote("origin").add("main").call();
            }
            String body = "{\"ref\":\"refs/heads/main\",\"before\":\"" + "0".repeat(40) + "\",\"after\":\"" + commit + "\"}";
            long t0 = System.nanoTime();
            assertThat(webhook("push", body).statusCode()).isEqualTo(202);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> query(token, word + " checklist").contains(word));
            millis.add((System.nanoTime() - t0) / 1_000_000);
        }
        List<Long> sorted = millis.stream().sorted().toList();
        System.out.printf("e2e bench (prod profile): merge webhook → searchable over %d merges: p50 %d ms, max %d ms, "
                + "all %s%n", sorted.size(), sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1), millis);
        assertThat(sorted).hasSize(10);
    }
}
