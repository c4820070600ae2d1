package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.testsupport.Browsers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What a reader of the web UI sees, in real headless Chromium on the example vault: the first page on a project,
 * counts that agree, the title once, skills by name, link paths that wrap at slashes, result cards with only the
 * branches that ran and rendered snippets, a result that opens at its section, the editor at the top, and the
 * search button at 800 px. Each test starts from a fresh page (a new tab state: {@link #freshPage}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebUiReadingBrowserTest extends HubWebTestBase {
    static final Dimension WIDE = new Dimension(1440, 1000);
    static final String POD_CRASHES = "projects/poimen/debugging/pod-crashes.md";

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

    @BeforeEach
    void freshPage() {
        browser.manage().window().setSize(WIDE);
        browser.get(base() + "/login-callback.html");
        js("sessionStorage.clear()");
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(script, args);
    }

    WebElement visible(String css) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    void openNote(String path, String title) {
        browser.get(base() + "/#/note/" + path);
        wait.until(ExpectedConditions.textToBe(By.id("note-title"), title));
    }

    List<WebElement> search(String query) {
        WebElement box = browser.findElement(By.id("search-input"));
        box.clear();
        box.sendKeys(query);
        browser.findElement(By.id("search-button")).click();
        visible("#search-results li.result");
        return browser.findElements(By.cssSelector("#search-results li.result"));
    }

    @Test
    void theFirstPageOpensTheIndexOfAProjectTheCallerMayRead() throws Exception {
        browser.get(base() + "/");
        wait.until(ExpectedConditions.urlContains("#/note/"));
        JsonNode projects = JSON.readTree(get("/memory/projects")).path("projects");
        String first = projects.get(0).path("name").asText();
        Select select = new Select(browser.findElement(By.id("project-select")));
        assertThat(select.getFirstSelectedOption().getDomAttribute("value")).isEqualTo(first);
        assertThat(select.getOptions()).extracting(o -> o.getDomAttribute("value"))
                .as("every option a project the caller may read, no empty choice")
                .containsExactlyElementsOf(StreamSupport.stream(projects.spliterator(), false)
                        .map(p -> p.path("name").asText()).toList());
        assertThat(browser.getCurrentUrl()).endsWith("#/note/projects/" + first + "/index.md");
        wait.until(d -> !d.findElement(By.id("note-title")).getText().isBlank());
        assertThat(browser.findElements(By.cssSelector("#preview p"))).isNotEmpty();
        assertThat(browser.findElements(By.cssSelector("#tree a[data-path]"))).isNotEmpty();

        search("training jobs");
        assertThat(browser.findElement(By.id("status")).getText()).doesNotContain("Choose a project");
        assertThat(browser.findElement(By.id("search-summary")).getText()).contains("results in " + first);
    }

    @Test
    void theSelectorAndTheSidebarCountTheSameNotesAndSayWhatTheyCount() throws Exception {
        browser.get(base() + "/");
        wait.until(d -> new Select(d.findElement(By.id("project-select"))).getOptions().size() > 1);
        new Select(browser.findElement(By.id("project-select"))).selectByValue("poimen");
        wait.until(ExpectedConditions.urlContains("#/note/projects/poimen/index.md"));
        int own = 0;
        int scope = 0;
        for (JsonNode f : JSON.readTree(get("/memory/vault?project=poimen")).path("files")) {
            scope++;
            own += f.path("path").asText().startsWith("projects/poimen/") ? 1 : 0;
        }
        int notes = 0;
        for (JsonNode p : JSON.readTree(get("/memory/projects")).path("projects")) {
            notes = "poimen".equals(p.path("name").asText()) ? p.path("notes").asInt() : notes;
        }
        assertThat(notes).as("the projects list counts the project's own notes").isEqualTo(own).isPositive();
        assertThat(scope).as("the scope adds shared notes").isGreaterThan(own);
        assertThat(new Select(browser.findElement(By.id("project-select"))).getFirstSelectedOption().getText())
                .isEqualTo("poimen (" + own + " notes)");
        wait.until(ExpectedConditions.textToBe(By.id("file-count"),
                own + " notes in poimen + " + (scope - own) + " shared"));
    }

    @Test
    void theNoteTitleIsShownOnce() {
        openNote(POD_CRASHES, "Pod crashes and restarts");
        List<String> headings = browser.findElements(By.cssSelector("#note-title, #preview h1, #preview h2"))
                .stream().map(WebElement::getText).toList();
        assertThat(headings).filteredOn("Pod crashes and restarts"::equals).hasSize(1);
        assertThat(headings).contains("CrashLoopBackOff", "OOMKilled");
    }

    @Test
    void skillsShowTheirFolderNamesInTheTree() {
        openNote("projects/poimen/index.md", "Poimen homelab platform");
        List<WebElement> skills = wait.until(d -> {
            List<WebElement> found = d.findElements(By.cssSelector("#tree a[data-path$='/SKILL.md']"));
            return found.size() >= 2 ? found : null;
        });
        for (WebElement skill : skills) {
            String folder = skill.getDomAttribute("data-path").replaceAll("^.*/([^/]+)/SKILL\\.md$", "$1");
            assertThat(skill.getText()).isEqualTo(folder).startsWith("SKILL-");
        }
        assertThat(skills).extracting(WebElement::getText).doesNotHaveDuplicates();
    }

    /** For each link of the side panel: [lines it takes, names of its path broken across two lines]. */
    @SuppressWarnings("unchecked")
    List<List<Object>> linkWrapping() {
        return (List<List<Object>>) js("""
                const lines = rects => new Set([...rects].map(r => Math.round(r.top))).size;
                return [...document.querySelectorAll('#backlinks a[data-path], #outlinks a[data-path]')].map(a => {
                  const broken = [];
                  const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
                  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                    for (const m of n.data.matchAll(/[^/]+/g)) {
                      const r = document.createRange();
                      r.setStart(n, m.index);
                      r.setEnd(n, m.index + m[0].length);
                      if (lines(r.getClientRects()) > 1) broken.push(m[0]);
                    }
                  }
                  return [lines(a.getClientRects()), broken.join(' ')];
                });""");
    }

    @Test
    void linkPathsWrapOnlyAtSlashes() {
        openNote("projects/poimen/debugging/network-policies.md", "Network policies and DNS errors");
        visible("#backlinks a[data-path]");
        List<List<Object>> links = linkWrapping();
        assertThat(links).isNotEmpty();
        assertThat(links).as("some path is longer than the panel and wraps")
                .anySatisfy(l -> assertThat((Long) l.get(0)).isGreaterThan(1));
        assertThat(links).as("no name of a path broken across lines").allSatisfy(l -> assertThat(l.get(1)).isEqualTo(""));
    }

    @Test
    void aShortQueryShowsOnlyTheBranchesThatRanAndRenderedSnippets() {
        openNote(POD_CRASHES, "Pod crashes and restarts");
        List<WebElement> results = search("CrashLoopBackOff");
        assertThat(browser.findElement(By.id("search-summary")).getText()).contains("strategy lexical (lexical, tfidf)");
        for (WebElement result : results) {
            assertThat(result.findElements(By.cssSelector(".branch-row")))
                    .extracting(r -> r.getDomAttribute("data-branch")).containsExactly("lexical", "tfidf");
            WebElement snippet = result.findElement(By.cssSelector(".snippet"));
            assertThat(snippet.getText()).as("rendered, not raw markdown").doesNotContain("[[", "](", "## ", "`");
        }
        WebElement fix = results.stream()
                .filter(r -> r.findElement(By.cssSelector(".crumbs")).getText().endsWith("How to fix CrashLoopBackOff"))
                .findFirst().orElseThrow();
        WebElement snippet = fix.findElement(By.cssSelector(".snippet"));
        assertThat(snippet.findElements(By.cssSelector("ol > li"))).hasSizeGreaterThanOrEqualTo(2);
        assertThat(snippet.findElements(By.cssSelector("code"))).extracting(WebElement::getText)
                .as("markup in the text stays text").anySatisfy(c -> assertThat(c).startsWith("kubectl debug <pod> -it"));
        assertThat(snippet.findElements(By.cssSelector(".wikilink"))).extracting(WebElement::getText)
                .contains("› OOMKilled");
        assertThat(snippet.findElements(By.cssSelector("a[href='#'], .unresolved, img, script"))).isEmpty();
    }

    @Test
    void aSnippetKeepsOnlyWebLinksAndItsMarkupStaysText() {
        openNote(POD_CRASHES, "Pod crashes and restarts");
        @SuppressWarnings("unchecked")
        Map<String, Object> snippet = (Map<String, Object>) ((JavascriptExecutor) browser).executeAsyncScript("""
                const done = arguments[0];
                import('/js/search.js').then(s => {
                  const box = document.createElement('div');
                  box.innerHTML = s.snippetHtml('## Heading\\n\\nSee [[pod-crashes]], [the drain](../runbooks/node-drain.md), '
                    + '![[diagram.png]], ![d](d.png), [docs](https://kubernetes.io/docs/) and <img src=x onerror=alert(1)>.');
                  done({html: box.innerHTML, text: box.textContent,
                    links: [...box.querySelectorAll('a')].map(a => a.getAttribute('href')),
                    names: [...box.querySelectorAll('span.wikilink')].map(e => e.textContent),
                    elements: box.querySelectorAll('img, script, h1, h2, [onerror]').length});
                }, e => done({error: String(e)}));""");
        assertThat(snippet.get("links")).as(String.valueOf(snippet)).isEqualTo(List.of("https://kubernetes.io/docs/"));
        assertThat(snippet.get("names")).isEqualTo(List.of("pod-crashes"));
        assertThat(snippet.get("elements")).isEqualTo(0L);
        assertThat(((String) snippet.get("text")).strip()).startsWith("See pod-crashes, the drain, diagram.png, d, docs and ")
                .contains("<img src=x onerror=alert(1)>").doesNotContain("Heading");
    }

    @Test
    void openingAResultShowsItsSectionOfTheNote() {
        browser.manage().window().setSize(new Dimension(1440, 600));
        openNote("projects/poimen/index.md", "Poimen homelab platform");
        WebElement oom = search("OOMKilled memory limit").stream()
                .filter(r -> POD_CRASHES.equals(r.getDomAttribute("data-path"))
                        && r.findElement(By.cssSelector(".crumbs")).getText().equals("Pod crashes and restarts › OOMKilled"))
                .findFirst().orElseThrow();
        oom.findElement(By.cssSelector(".result-link")).click();
        wait.until(ExpectedConditions.textToBe(By.id("note-title"), "Pod crashes and restarts"));
        assertThat(browser.getCurrentUrl()).endsWith("#/note/" + POD_CRASHES + "#oomkilled");
        wait.until(d -> {
            Map<?, ?> at = (Map<?, ?>) js("const r = document.getElementById('oomkilled').getBoundingClientRect();"
                    + "return {top: r.top, scrolled: window.scrollY};");
            double top = ((Number) at.get("top")).doubleValue();
            return ((Number) at.get("scrolled")).doubleValue() > 0 && top >= 0 && top < 50;
        });
    }

    @Test
    void theEditorOpensAtTheTopOfTheNote() {
        openNote("projects/poimen/debugging/network-policies.md", "Network policies and DNS errors");
        visible("#edit-button").click();
        WebElement editor = visible("#editor");
        Map<?, ?> state = (Map<?, ?>) js("const e = arguments[0]; return {scrollTop: e.scrollTop, caret: e.selectionStart,"
                + " overflow: e.scrollHeight > e.clientHeight, top: e.getBoundingClientRect().top,"
                + " focused: document.activeElement === e};", editor);
        assertThat(state.get("overflow")).as("the note is longer than the editor").isEqualTo(true);
        assertThat(((Number) state.get("scrollTop")).doubleValue()).isZero();
        assertThat(((Number) state.get("caret")).longValue()).isZero();
        assertThat(state.get("focused")).isEqualTo(true);
        assertThat(((Number) state.get("top")).doubleValue()).as("the editor's top on screen").isBetween(0.0, 1000.0);
        browser.findElement(By.id("cancel-edit")).click();
    }

    @Test
    void at800PixelsWideTheSearchButtonIsOnScreenAndWorks() {
        browser.manage().window().setSize(new Dimension(800, 900));
        openNote(POD_CRASHES, "Pod crashes and restarts");
        WebElement button = browser.findElement(By.id("search-button"));
        assertThat(button.isDisplayed()).isTrue();
        Map<?, ?> at = (Map<?, ?>) js("const r = arguments[0].getBoundingClientRect();"
                + "const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;"
                + "return {right: r.right, width: document.documentElement.clientWidth,"
                + " scrollWidth: document.documentElement.scrollWidth, hit: document.elementFromPoint(x, y) === arguments[0]};",
                button);
        assertThat(((Number) at.get("width")).doubleValue()).isLessThanOrEqualTo(800);
        assertThat(((Number) at.get("right")).doubleValue()).isLessThanOrEqualTo(((Number) at.get("width")).doubleValue());
        assertThat(at.get("hit")).as("nothing covers the button").isEqualTo(true);
        assertThat(((Number) at.get("scrollWidth")).longValue()).as("no sideways scrolling")
                .isLessThanOrEqualTo(((Number) at.get("width")).longValue());
        List<WebElement> results = search("pod keeps restarting with CrashLoopBackOff");
        assertThat(results).isNotEmpty();
    }

    String get(String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base() + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }
}
