package io.poimen.memory.web;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.grc.GrcTestSupport;
import io.poimen.memory.retrieval.fusion.FusionMethods;
import io.poimen.memory.testsupport.Browsers;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web UI in real headless Chromium (Debian's chromium and chromium-driver; missing, the test fails): pick a project, open a note, follow
 * a wiki-link, search and read a breakdown, submit an edit through the real GRC route (a branch pushed to the bare
 * remote, the pull request from WireMock's Forgejo) and see the PR link, watch an agent event arrive live, see a
 * note's embedded diagram and every other attachment form, and open an SVG with a script on its own (nothing runs);
 * open notes by name (an alias, a memory:// URL, one of an ambiguous name's candidates). Each step saves a
 * screenshot under {@link Browsers#SCREENSHOTS}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebUiBrowserTest extends HubWebTestBase {

    ChromeDriver browser;
    WebDriverWait wait;

    @BeforeAll
    void startBrowser(@TempDir Path profile) throws IOException {
        browser = Browsers.start(profile);
        wait = new WebDriverWait(browser, Duration.ofSeconds(30));
    }

    @AfterAll
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    void screenshot(String name) throws IOException {
        Browsers.screenshot(browser, name);
    }

    WebElement visible(String css) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    void waitForTitle(String title) {
        wait.until(ExpectedConditions.textToBe(By.id("note-title"), title));
    }

    @Test
    @Order(1)
    void picksAProjectAndOpensItsIndexNote() throws IOException {
        browser.get(base() + "/");
        wait.until(d -> new Select(d.findElement(By.id("project-select"))).getOptions().size() > 1);
        new Select(browser.findElement(By.id("project-select"))).selectByValue("poimen");
        visible("#tree a[data-path='projects/poimen/tools/kubectl.md']");
        wait.until(ExpectedConditions.urlContains("#/note/projects/poimen/index.md"));
        waitForTitle(browser.findElement(By.cssSelector("#tree a[data-path='projects/poimen/index.md']"))
                .getAttribute("title"));
        assertThat(browser.findElements(By.cssSelector("#tree details[data-dir]"))).isNotEmpty();
        assertThat(browser.findElements(By.cssSelector("#preview h2"))).isNotEmpty();
        screenshot("01-vault-project.png");
    }

    @Test
    @Order(2)
    void opensANoteAndFollowsAWikiLink() throws IOException {
        visible("#tree a[data-path='projects/poimen/tools/kubectl.md']").click();
        waitForTitle("kubectl debugging commands");
        assertThat(browser.findElement(By.id("breadcrumbs")).getText()).contains("projects", "poimen", "tools",
                "kubectl.md");
        assertThat(browser.findElement(By.cssSelector("#preview h2#describe-a-pod")).getText()).isEqualTo("Describe a pod");
        assertThat(browser.findElements(By.cssSelector("#backlinks a[data-path='projects/poimen/index.md']"))).hasSize(1);
        screenshot("02-note.png");
        WebElement link = visible("#preview a.wikilink[data-path='projects/poimen/debugging/pod-crashes.md']");
        link.click();
        waitForTitle("Pod crashes and restarts");
        assertThat(browser.getCurrentUrl()).endsWith("#/note/projects/poimen/debugging/pod-crashes.md");
        assertThat(browser.findElement(By.cssSelector("#tree a.current")).getAttribute("data-path"))
                .isEqualTo("projects/poimen/debugging/pod-crashes.md");
        assertThat(browser.findElements(By.cssSelector("#backlinks a[data-path='projects/poimen/tools/kubectl.md']")))
                .hasSize(1);
        screenshot("03-followed-wiki-link.png");
    }

    @Test
    @Order(8)
    void opensANoteByItsNameOrAliasAndListsTheNotesOfAnAmbiguousName() {
        // the UI hands the name to the API, which resolves it as a [[link]]; the address becomes the note's path
        browser.get(base() + "/#/note/Pod crash guide");
        waitForTitle("Pod crashes and restarts");
        wait.until(ExpectedConditions.urlContains("#/note/projects/poimen/debugging/pod-crashes.md"));
        browser.get(base() + "/#/note/memory://poimen/kubectl");
        waitForTitle("kubectl debugging commands");
        wait.until(ExpectedConditions.urlContains("#/note/projects/poimen/tools/kubectl.md"));
        // every project has an index: the preview lists them, each a link to its note
        browser.get(base() + "/#/note/index");
        visible("#preview ul.candidates a[data-path='projects/rust-guide/index.md']").click();
        wait.until(ExpectedConditions.urlContains("#/note/projects/rust-guide/index.md"));
        // the note's project tree is loaded (and drawn again) after the note: wait for it to mark the note
        new WebDriverWait(browser, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
                .until(ExpectedConditions.attributeToBe(By.cssSelector("#tree a.current"), "data-path",
                        "projects/rust-guide/index.md"));
    }

    @Test
    @Order(3)
    void searchesAndShowsEachResultsScoreBreakdown() throws IOException {
        WebElement box = browser.findElement(By.id("search-input"));
        box.clear();
        box.sendKeys("pod keeps restarting with CrashLoopBackOff");
        browser.findElement(By.id("search-button")).click();
        WebElement first = visible("#search-results li.result");
        assertThat(browser.findElement(By.id("view-browse")).isDisplayed()).as("only one view at a time").isFalse();
        assertThat(first.findElement(By.cssSelector(".result-link")).getText()).startsWith("projects/poimen/");
        WebElement breakdown = first.findElement(By.cssSelector(".breakdown"));
        assertThat(breakdown.getAttribute("data-fusion")).isIn(FusionMethods.names());
        List<WebElement> rows = breakdown.findElements(By.cssSelector(".branch-row"));
        assertThat(rows).extracting(r -> r.getAttribute("data-branch"))
                .containsExactly("semantic", "lexical", "tfidf");
        List<WebElement> found = breakdown.findElements(By.cssSelector(".branch-row:not(.missing)"));
        assertThat(found).isNotEmpty();
        double contributions = 0;
        for (WebElement row : found) {
            contributions += Double.parseDouble(row.findElement(By.cssSelector(".contribution")).getText());
            String width = row.findElement(By.cssSelector(".fill")).getAttribute("style");
            assertThat(width).matches(".*width: \\d+(\\.\\d+)?%.*");
        }
        assertThat(contributions).isPositive();
        assertThat(breakdown.findElements(By.cssSelector(".stacked .seg"))).hasSameSizeAs(found);
        assertThat(breakdown.findElement(By.cssSelector(".reason")).getText()).isNotBlank();
        screenshot("04-search-breakdown.png");
    }

    @Test
    @Order(3)
    void theFilterRowNarrowsTheSearchToAFolderAndTags() throws IOException {
        WebElement box = browser.findElement(By.id("search-input"));
        box.clear();
        box.sendKeys("pod keeps restarting with CrashLoopBackOff");
        browser.findElement(By.id("search-button")).click();
        visible("#search-results li.result");
        WebElement folder = visible("#filter-folder");
        folder.clear();
        folder.sendKeys("projects/poimen/tools/");
        browser.findElement(By.id("filter-tags")).sendKeys("kubectl");
        browser.findElement(By.id("filter-apply")).click();
        wait.until(d -> {
            List<WebElement> links = d.findElements(By.cssSelector("#search-results li.result .result-link"));
            return !links.isEmpty() && links.stream().allMatch(a -> a.getText().startsWith("projects/poimen/tools/"));
        });
        assertThat(browser.findElements(By.cssSelector("#search-results li.result .result-link")))
                .extracting(WebElement::getText).containsOnly("projects/poimen/tools/kubectl.md");
        screenshot("04b-search-filters.png");
        folder.clear();
        browser.findElement(By.id("filter-tags")).clear();
    }

    @Test
    @Order(4)
    void submitsAnEditForReviewAndShowsThePullRequestLink() throws IOException {
        browser.get(base() + "/#/note/projects/poimen/tools/helm.md");
        wait.until(d -> !d.findElement(By.id("note-title")).getText().isBlank());
        visible("#edit-button").click();
        WebElement editor = visible("#editor");
        assertThat(editor.getAttribute("value")).contains("helm");
        // the editor opens with the caret at the top: go to the end to append
        editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.END), "\n\n## Rollback\n\nUse `helm rollback <release> <revision>`.\n");
        assertThat(editor.getAttribute("value")).startsWith("---\ntitle: Helm releases with Flux")
                .endsWith("## Rollback\n\nUse `helm rollback <release> <revision>`.\n");
        WebElement message = browser.findElement(By.id("edit-message"));
        message.clear();
        message.sendKeys("Add rollback section");
        screenshot("05-edit-mode.png");
        FORGEJO.resetAll();
        GrcTestSupport.pullRequestsOpenAs(FORGEJO, 42);
        browser.findElement(By.id("submit-review")).click();
        WebElement pr = visible("#pr-link");
        assertThat(pr.getAttribute("href")).isEqualTo("http://forgejo.test/team/vault/pulls/42");
        assertThat(pr.getText()).isEqualTo("Pull request #42");
        String branch = browser.findElement(By.cssSelector("#review-result code")).getText();
        assertThat(branch).matches("edit/local-operator/helm-\\d{14}-[0-9a-f]{8}");
        // the edit is a commit on that branch in the remote, on top of main, and Forgejo was asked for the PR
        try (Git remote = Git.open(REMOTE.toFile()); RevWalk walk = new RevWalk(remote.getRepository())) {
            Repository repo = remote.getRepository();
            ObjectId tip = repo.resolve("refs/heads/" + branch);
            assertThat(tip).as("branch pushed").isNotNull();
            RevCommit commit = walk.parseCommit(tip);
            assertThat(commit.getFullMessage()).startsWith("Add rollback section");
            assertThat(commit.getParent(0).getId()).isEqualTo(repo.resolve("refs/heads/main"));
            try (TreeWalk file = TreeWalk.forPath(repo, "projects/poimen/tools/helm.md", commit.getTree())) {
                assertThat(new String(repo.open(file.getObjectId(0)).getBytes(), StandardCharsets.UTF_8))
                        .contains("## Rollback", "Use `helm rollback <release> <revision>`.");
            }
        }
        FORGEJO.verify(1, postRequestedFor(urlPathEqualTo(GrcTestSupport.PULLS))
                .withRequestBody(matchingJsonPath("$.head", equalTo(branch)))
                .withRequestBody(matchingJsonPath("$.title", equalTo("Add rollback section"))));
        screenshot("06-submitted-for-review.png");
    }

    @Test
    @Order(5)
    void showsAgentEventsArrivingLive() throws Exception {
        browser.findElement(By.id("tab-agents")).click();
        wait.until(ExpectedConditions.textToBe(By.id("stream-status"), "live"));
        assertThat(browser.findElement(By.id("view-search")).isDisplayed()).isFalse();
        HttpClient http = HttpClient.newHttpClient();
        String session = "ui-" + System.nanoTime();
        HttpResponse<String> posted = http.send(HttpRequest.newBuilder(URI.create(base() + "/memory/agents/events"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("""
                        {"agent_id":"fixer-bot","session_id":"%s","type":"tool_invoked",
                         "payload":{"tool_name":"kubectl","args":["logs","api-7f9","--previous"]}}""".formatted(session)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(posted.statusCode()).isEqualTo(201);
        String id = new com.fasterxml.jackson.databind.ObjectMapper().readTree(posted.body()).get("id").asText();
        WebElement event = visible(".agent-event[data-id='" + id + "']");
        assertThat(event.getText()).contains("tool_invoked", "fixer-bot", "kubectl");
        HttpResponse<String> query = http.send(HttpRequest.newBuilder(URI.create(base() + "/memory/query"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("""
                        {"project":"poimen","query":"how do I read logs of the crashed container","top_k":3,
                         "agent_id":"fixer-bot","session_id":"%s"}""".formatted(session)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(query.statusCode()).isEqualTo(200);
        // other tests in this context (the fuzz test) left agent events in the log: wait for this session's own
        WebElement retrieved = wait.until(ExpectedConditions.visibilityOfElementLocated(By.xpath(
                "//li[contains(@class,'agent-event') and @data-type='memory_retrieved']"
                        + "[.//span[@class='session' and text()='" + session + "']]")));
        assertThat(retrieved.getText()).contains("how do I read logs of the crashed container", "fixer-bot");
        assertThat(retrieved.findElements(By.cssSelector(".chunks li"))).isNotEmpty();
        List<WebElement> timeline = browser.findElements(By.cssSelector("#agent-timeline > li.agent-event"));
        assertThat(timeline.get(0).getAttribute("data-id")).as("newest first")
                .isEqualTo(retrieved.getAttribute("data-id"));
        List<Long> ids = timeline.stream().map(e -> Long.parseLong(e.getAttribute("data-id"))).toList();
        assertThat(ids).as("log and live events in one newest-first order")
                .isSortedAccordingTo(java.util.Comparator.reverseOrder());
        ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0)");
        screenshot("07-agent-workspace-live.png");
    }

    static final String DIAGRAM = "projects/poimen/attachments/cluster-diagram.png";

    /** The width the image has once its bytes arrived (0 before, or when they are not an image). */
    long naturalWidth(WebElement img) {
        return ((Number) ((JavascriptExecutor) browser).executeScript(
                "return arguments[0].complete ? arguments[0].naturalWidth : 0", img)).longValue();
    }

    /** The colour at {@code (x, y)} of a screenshot; negative: from the middle. */
    static Color colorAt(byte[] png, int x, int y) throws IOException {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        return new Color(image.getRGB(x < 0 ? image.getWidth() / 2 : x, y < 0 ? image.getHeight() / 2 : y));
    }

    @Test
    @Order(6)
    void showsTheEmbeddedDiagramOfANoteFromTheAttachmentEndpoint() throws IOException {
        browser.get(base() + "/#/note/projects/poimen/memories/cluster-layout.md");
        waitForTitle("Cluster layout");
        WebElement img = visible("#preview img.attachment[data-attachment='" + DIAGRAM + "']");
        wait.until(d -> naturalWidth(img) > 0);
        assertThat(naturalWidth(img)).isEqualTo(640);
        assertThat(img.getAttribute("src")).as("bytes fetched with the session's bearer").startsWith("blob:");
        assertThat(browser.findElements(By.cssSelector("#preview .attachment.missing, #preview .unresolved")))
                .isEmpty();
        assertThat(browser.findElements(By.cssSelector("#outlinks a[data-attachment='" + DIAGRAM + "']"))).hasSize(1);
        screenshot("08-note-with-attachment.png");
        // the next note revokes the blob: URL
        String blob = img.getAttribute("src");
        visible("#tree a[data-path='projects/poimen/tools/kubectl.md']").click();
        waitForTitle("kubectl debugging commands");
        Object status = ((JavascriptExecutor) browser).executeAsyncScript("const [blob, done] = arguments;"
                + "const i = new Image(); i.onload = () => done('readable'); i.onerror = () => done('revoked');"
                + "i.src = blob;", blob);
        assertThat(status).isEqualTo("revoked");
    }

    @Test
    @Order(7)
    void rendersEveryAttachmentFormAndAnSvgRunsNoScriptInTheNoteOrOnItsOwn(@TempDir Path downloads)
            throws Exception {
        Path attachments = GIT_ROOT.resolve("vault/projects/poimen/attachments");
        String svg = "projects/poimen/attachments/ui-flow.svg";
        // green, unless a script or an event handler ran and turned it red
        Files.writeString(attachments.resolve("ui-flow.svg"), """
                <svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" onload="document.getElementById('r')\
                .setAttribute('fill', 'red')"><rect id="r" width="200" height="200" fill="rgb(0,160,0)"/>\
                <script>document.getElementById('r').setAttribute('fill', 'red')</script></svg>""");
        byte[] pdf = "%PDF-1.4\n% runbook export\n".getBytes(StandardCharsets.US_ASCII);
        Files.write(attachments.resolve("ui-runbook.pdf"), pdf);
        try {
            browser.get(base() + "/#/note/projects/poimen/memories/cluster-layout.md");
            waitForTitle("Cluster layout");
            // the real renderer and loader on a note whose links the hub resolved as given here
            Object rendered = ((JavascriptExecutor) browser).executeAsyncScript("""
                    const [text, links, done] = arguments;
                    Promise.all([import('/js/markdown.js'), import('/js/attachments.js')]).then(([md, at]) => {
                      at.releaseAttachments();
                      const box = document.getElementById('preview');
                      box.innerHTML = md.renderMarkdown(text, links, {});
                      at.showAttachments(box);
                      done('ok');
                    }, e => done(String(e)));""", """
                    # Attachments
                    ![[cluster-diagram.png|120]] ![flow](../attachments/ui-flow.svg)
                    ![[ui-missing.png]] ![[gone.png]] ![[ui-runbook.pdf]]
                    """, List.of(
                    Map.of("raw", "cluster-diagram.png|120", "target", "cluster-diagram.png", "embed", true,
                            "resolved_path", DIAGRAM),
                    Map.of("raw", "[flow](../attachments/ui-flow.svg)", "target", "../attachments/ui-flow.svg",
                            "embed", true, "resolved_path", svg),
                    Map.of("raw", "ui-missing.png", "target", "ui-missing.png", "embed", true),
                    Map.of("raw", "gone.png", "target", "gone.png", "embed", true,
                            "resolved_path", "projects/poimen/attachments/gone.png"),
                    Map.of("raw", "ui-runbook.pdf", "target", "ui-runbook.pdf", "embed", true,
                            "resolved_path", "projects/poimen/attachments/ui-runbook.pdf")));
            assertThat(rendered).isEqualTo("ok");
            WebElement small = visible("#preview img.attachment[data-attachment='" + DIAGRAM + "']");
            WebElement flow = visible("#preview img.attachment[data-attachment='" + svg + "']");
            wait.until(d -> naturalWidth(small) > 0 && naturalWidth(flow) > 0);
            assertThat(small.getAttribute("width")).isEqualTo("120");
            assertThat(flow.getAttribute("alt")).isEqualTo("flow");
            assertThat(flow.getAttribute("src")).as("an SVG opened on its own must not be a document of the hub's"
                    + " origin").startsWith("data:image/svg+xml;base64,");
            Color inNote = colorAt(flow.getScreenshotAs(OutputType.BYTES), -1, -1);
            assertThat(inNote.getGreen()).as("the SVG as drawn: " + inNote).isGreaterThan(120);
            assertThat(inNote.getRed()).as("no script ran in the <img>: " + inNote).isLessThan(60);
            assertThat(visible("#preview .attachment.missing[title='missing attachment: ui-missing.png']").getText())
                    .isEqualTo("missing attachment: ui-missing.png");
            wait.until(d -> !d.findElements(By.cssSelector("#preview .attachment.missing[title^="
                    + "'projects/poimen/attachments/gone.png']")).isEmpty());
            assertThat(browser.findElement(By.cssSelector("#preview .attachment.missing[title^='projects/poimen/"
                    + "attachments/gone.png']")).getText()).isEqualTo("attachment not available: gone.png");
            screenshot("09-attachment-forms.png");

            // the PDF link saves the file fetched with the session's bearer
            browser.executeCdpCommand("Browser.setDownloadBehavior", Map.of("behavior", "allow",
                    "downloadPath", downloads.toAbsolutePath().toString()));
            visible("#preview a.attachment-link[data-attachment='projects/poimen/attachments/ui-runbook.pdf']").click();
            Path saved = downloads.resolve("ui-runbook.pdf");
            wait.until(d -> Files.exists(saved));
            wait.until(d -> {
                try {
                    return java.util.Arrays.equals(Files.readAllBytes(saved), pdf);
                } catch (IOException e) {
                    return false;
                }
            });

            // opened on its own, the SVG runs no script and no event handler: its policy is a sandbox
            browser.get(base() + "/memory/vault/attachment?path=" + svg);
            // the document shows the 200 × 200 drawing at the top left
            Color alone = colorAt(((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES), 100, 100);
            assertThat(alone.getGreen()).as("no script ran in the SVG document: " + alone).isGreaterThan(120);
            assertThat(alone.getRed()).as("no script ran in the SVG document: " + alone).isLessThan(60);
        } finally {
            Files.deleteIfExists(attachments.resolve("ui-flow.svg"));
            Files.deleteIfExists(attachments.resolve("ui-runbook.pdf"));
            browser.get(base() + "/");
        }
    }
}
