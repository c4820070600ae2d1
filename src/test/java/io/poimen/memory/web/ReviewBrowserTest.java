package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.grc.LocalReviewTestSupport;
import io.poimen.memory.testsupport.Browsers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The edit loop in the web UI, in real headless Chromium, on the embedded default as a new user starts it (no git
 * host, no auth on loopback: the hub reviews, and its local operator may approve their own drafts): edit a section
 * from its heading, see the diff before submitting, submit, open the review screen, approve, and find the new text
 * by search within 2 s. Also: a rejection with a comment, a draft that became a conflict, a move and a delete, each
 * with its diff on the review screen. Screenshots go to {@link Browsers#SCREENSHOTS}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReviewBrowserTest extends LocalReviewTestSupport {
    static final String DRAIN = "projects/poimen/runbooks/node-drain.md";

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

    String base() {
        return "http://127.0.0.1:" + port;
    }

    void screenshot(String name) throws IOException {
        Browsers.screenshot(browser, name);
    }

    WebElement visible(String css) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    void type(String css, String text) {
        WebElement input = visible(css);
        input.clear();
        input.sendKeys(text);
    }

    /** Opens the note in a freshly loaded page (the note as it is now) and waits for its section edit buttons. */
    void openNote(String path) {
        browser.get("about:blank");
        browser.get(base() + "/#/note/" + path);
        wait.until(d -> d.getCurrentUrl().endsWith("#/note/" + path));
        visible("#preview .section-edit");
    }

    /** Submits what is in the editor; answers the draft's id from the answer shown. */
    String submit() {
        browser.findElement(By.id("submit-review")).click();
        visible("#review-result #draft-link");
        return browser.findElement(By.id("review-result")).getAttribute("data-draft");
    }

    /** Opens the draft from the link under the note and waits for its diff on the review screen. */
    WebElement reviewScreenOf(String id) {
        visible("#draft-link").click();
        wait.until(ExpectedConditions.urlContains("#/review/" + id));
        WebElement detail = visible("#draft-detail[data-id='" + id + "']");
        visible("#draft-list li.draft[data-id='" + id + "']");
        assertThat(browser.findElement(By.id("view-browse")).isDisplayed()).isFalse();
        return detail;
    }

    JsonNode draftOverRest(String id) throws Exception {
        return json(http.getForEntity("/memory/grc/drafts/" + id, String.class));
    }

    @Test
    @Order(1)
    void editsASectionSeesItsDiffSubmitsApprovesAndSearchFindsTheNewTextWithinTwoSeconds() throws Exception {
        String version = read(DRAIN).path("version").asText();
        String word = "budgetwren" + unique();
        openNote(DRAIN);
        assertThat(browser.findElement(By.id("tab-review")).isDisplayed()).as("the hub reviews: the tab is there")
                .isTrue();
        assertThat(browser.findElement(By.id("move-button")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("delete-button")).isDisplayed()).isTrue();
        // a heading inside a fenced code block is no section
        assertThat(browser.findElements(By.cssSelector("#preview .section-edit"))).extracting(
                b -> b.getAttribute("data-section")).contains("Runbook: drain and upgrade a node#Drain the node")
                .allMatch(s -> s.startsWith("Runbook: drain and upgrade a node"));
        visible("#preview h2#drain-the-node .section-edit").click();

        WebElement editor = visible("#editor");
        String section = editor.getAttribute("value");
        assertThat(section).as("the section's text, not the note's").startsWith("```bash\nkubectl cordon nuc-02")
                .contains("fix that instead of forcing the drain.").doesNotContain("## ", "Use this runbook");
        editor.clear();
        editor.sendKeys(word + ": drain one node at a time.\n\n```bash\nkubectl drain nuc-02 --ignore-daemonsets\n```");
        type("#edit-message", "Drain with " + word);
        browser.findElement(By.id("preview-diff")).click();
        WebElement diff = visible("#editor-diff .file-diff[data-path='" + DRAIN + "']");
        assertThat(diff.getAttribute("data-change")).isEqualTo("modified");
        assertThat(diff.findElements(By.cssSelector(".diff-line.add"))).extracting(WebElement::getText)
                .contains("+" + word + ": drain one node at a time.");
        assertThat(diff.findElements(By.cssSelector(".diff-line.del"))).extracting(WebElement::getText)
                .contains("-kubectl cordon nuc-02");
        assertThat(json(http.getForEntity("/memory/grc/drafts?status=all&limit=200", String.class)).toString())
                .as("the preview stores nothing").doesNotContain(word);
        screenshot("10-section-edit-preview.png");

        String id = submit();
        JsonNode stored = draftOverRest(id);
        assertThat(stored.path("base_versions").path(DRAIN).asText()).as("the version the editor read")
                .isEqualTo(version);
        assertThat(stored.path("operations").get(0).path("op").asText()).isEqualTo("replace_section");
        assertThat(stored.path("operations").get(0).path("section").asText())
                .isEqualTo("Runbook: drain and upgrade a node#Drain the node");

        WebElement detail = reviewScreenOf(id);
        WebElement listed = browser.findElement(By.cssSelector("#draft-list li.draft[data-id='" + id + "']"));
        assertThat(listed.getAttribute("data-status")).isEqualTo("open");
        assertThat(listed.getText()).contains("Drain with " + word, "local operator", DRAIN);
        assertThat(detail.findElements(By.cssSelector("#draft-diff .diff-line.add"))).extracting(WebElement::getText)
                .contains("+" + word + ": drain one node at a time.");
        assertThat(visible("#draft-state").getAttribute("data-status")).isEqualTo("open");
        screenshot("11-review-screen.png");

        // a hub that has answered a query before (the first one of a JVM loads the searchers)
        assertThat(post("/memory/query", java.util.Map.of("project", "poimen", "query", "drain a node",
                "search_method", "lexical")).getStatusCode().value()).isEqualTo(200);
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("search-method"))).selectByValue("lexical");

        visible("#approve-draft").click();
        wait.until(ExpectedConditions.attributeToBe(By.id("review-outcome"), "data-status", "merged"));
        assertThat(browser.findElement(By.id("draft-state")).getText()).startsWith("merged");
        assertThat(browser.findElement(By.id("approve-draft")).isDisplayed()).as("decided once").isFalse();
        screenshot("12-approved-merged.png");

        // searchable within 2 s of the approval: the word is new, so the lexical branch finds the note only once the
        // merged text is indexed; each poll searches again once the last search has answered
        WebDriverWait twoSeconds = new WebDriverWait(browser, Duration.ofSeconds(2), Duration.ofMillis(100));
        twoSeconds.ignoring(StaleElementReferenceException.class).until(d -> {
            boolean found = !d.findElements(By.cssSelector("#search-results li.result[data-path='" + DRAIN + "']"))
                    .isEmpty();
            if (!found && !d.findElement(By.id("search-summary")).getText().startsWith("Searching")) {
                WebElement box = d.findElement(By.id("search-input"));
                box.clear();
                box.sendKeys(word);
                d.findElement(By.id("search-button")).click();
            }
            return found;
        });
        assertThat(browser.findElements(By.cssSelector("#search-results li.result"))).extracting(
                r -> r.getAttribute("data-path")).containsOnly(DRAIN);
        screenshot("13-merged-text-found.png");
    }

    @Test
    @Order(2)
    void aRejectionWithACommentShowsRejectedAndADraftOverTakenByAnotherShowsConflict() throws Exception {
        openNote(DRAIN);
        String first = "Before you start, check " + unique() + ".";
        String second = "Before you start, verify " + unique() + ".";
        // two drafts of one section from the same read of the note
        visible("#preview h2#before-you-start .section-edit").click();
        type("#editor", first);
        String a = submit();
        visible("#preview h2#before-you-start .section-edit").click();
        type("#editor", second);
        String b = submit();
        visible("#preview h2#if-something-goes-wrong .section-edit").click();
        type("#editor", "Call the on-call engineer.");
        type("#edit-message", "Escalate at once");
        String c = submit();

        reviewScreenOf(c);
        type("#review-comment", "we keep the checklist");
        browser.findElement(By.id("reject-draft")).click();
        wait.until(ExpectedConditions.attributeToBe(By.id("review-outcome"), "data-status", "rejected"));
        assertThat(browser.findElement(By.id("draft-state")).getText()).startsWith("rejected");
        assertThat(browser.findElement(By.id("draft-facts")).getText()).contains("we keep the checklist");
        assertThat(draftOverRest(c).path("status").asText()).isEqualTo("rejected");
        screenshot("14-rejected.png");

        browser.get(base() + "/#/review/" + a);
        visible("#draft-detail[data-id='" + a + "'] #approve-draft").click();
        wait.until(ExpectedConditions.attributeToBe(By.id("review-outcome"), "data-status", "merged"));
        browser.get(base() + "/#/review/" + b);
        visible("#draft-detail[data-id='" + b + "'] #approve-draft").click();
        wait.until(ExpectedConditions.attributeToBe(By.id("review-outcome"), "data-status", "conflict"));
        assertThat(browser.findElement(By.id("review-outcome")).getAttribute("data-kind")).isEqualTo("error");
        assertThat(browser.findElement(By.id("draft-state")).getText()).startsWith("conflict");
        assertThat(visible("#draft-notes .conflict[data-path='" + DRAIN + "']").getText()).contains(first, second);
        assertThat(Files.readString(vault().resolve(DRAIN))).as("nothing reverted").contains(first)
                .doesNotContain(second);
        screenshot("15-conflict.png");

        // a screen that is out of date: another reviewer decided the draft meanwhile, the hub's 409 is shown
        openNote(DRAIN);
        visible("#preview h2#upgrade-and-return-the-node .section-edit").click();
        type("#editor", "Uncordon once `Ready`.");
        String d = submit();
        reviewScreenOf(d);
        assertThat(review(d, "reject", "someone else was quicker").getStatusCode().value()).isEqualTo(200);
        visible("#approve-draft").click();
        wait.until(ExpectedConditions.attributeToBe(By.id("review-outcome"), "data-status", "409"));
        assertThat(browser.findElement(By.id("review-outcome")).getText()).contains("cannot be decided now",
                "draft_not_open", "rejected");
    }

    @Test
    @Order(3)
    void aMoveAndADeleteMakeDraftsWhoseDiffIsShownBeforeAndAfterSubmitting() throws Exception {
        String from = "projects/poimen/memories/ownership.md";
        String to = "projects/poimen/memories/owners-" + unique() + ".md";
        openNote(from);
        visible("#move-button").click();
        assertThat(browser.findElement(By.id("editor")).isDisplayed()).isFalse();
        type("#move-to", to);
        browser.findElement(By.id("preview-diff")).click();
        WebElement renamed = visible("#editor-diff .file-diff[data-change='renamed']");
        assertThat(renamed.getAttribute("data-path")).isEqualTo(to);
        assertThat(renamed.findElement(By.cssSelector(".file-diff-head")).getText()).contains(from + " → " + to);
        String move = submit();
        reviewScreenOf(move);
        assertThat(visible("#draft-diff .file-diff[data-change='renamed']").getAttribute("data-path")).isEqualTo(to);
        assertThat(draftOverRest(move).path("moves").path(from).asText()).isEqualTo(to);
        screenshot("16-move-draft.png");

        String gone = "projects/poimen/decisions/adr-002-opensearch.md";
        openNote(gone);
        visible("#delete-button").click();
        browser.findElement(By.id("preview-diff")).click();
        WebElement deleted = visible("#editor-diff .file-diff[data-change='deleted']");
        assertThat(deleted.getAttribute("data-path")).isEqualTo(gone);
        assertThat(deleted.findElements(By.cssSelector(".diff-line.add"))).isEmpty();
        assertThat(deleted.findElements(By.cssSelector(".diff-line.del"))).isNotEmpty();
        String delete = submit();
        reviewScreenOf(delete);
        List<WebElement> shown = browser.findElements(By.cssSelector("#draft-diff .file-diff[data-change='deleted']"));
        assertThat(shown).extracting(e -> e.getAttribute("data-path")).containsExactly(gone);
        assertThat(Files.exists(vault().resolve(gone))).as("a draft, not a delete").isTrue();
        screenshot("17-delete-draft.png");
    }
}
