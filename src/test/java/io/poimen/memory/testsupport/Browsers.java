package io.poimen.memory.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for the browser tests: Debian's chromium and chromium-driver (scripts/test.sh installs them).
 * A machine without them fails the test: the UI is part of what the suite proves, so it never skips silently.
 */
public final class Browsers {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /**
     * Where the browser tests save their screenshots: {@code target/screenshots}, so that a test run leaves the
     * working tree as it was; {@code -Dpoimen.screenshots=docs/screenshots} refreshes the committed ones.
     */
    public static final Path SCREENSHOTS = Path.of(System.getProperty("poimen.screenshots", "target/screenshots"));

    private Browsers() {
    }

    /** A new headless browser with its own profile under {@code profile}; the caller quits it. */
    public static ChromeDriver start(Path profile) throws IOException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("the browser tests need " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (apt-get install chromium chromium-driver; scripts/test.sh does it)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--disable-popup-blocking", "--window-size=1440,1000",
                "--user-data-dir=" + Files.createDirectories(profile.resolve("chrome")));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** Saves what {@code browser} shows as {@code name} under {@link #SCREENSHOTS}. */
    public static void screenshot(ChromeDriver browser, String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOTS.resolve(name),
                StandardCopyOption.REPLACE_EXISTING);
    }
}
