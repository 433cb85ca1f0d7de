package dev.loci.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven through Selenium with the system chromedriver; a fresh
 * profile per browser. Without Chromium the calling test reports itself skipped with the install
 * command, unless {@code LOCI_REQUIRE_BROWSER=1} makes that a failure (CI sets it).
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path DRIVER = Path.of("/usr/bin/chromedriver");
  static final Path SHOTS = Path.of("target", "screenshots");
  private static final String AXE = "/META-INF/resources/webjars/axe-core/4.6.3/axe.min.js";

  final ChromeDriver driver;
  private final Path profile;
  private final String base;

  private Browser(String base) throws IOException {
    this.base = base;
    this.profile = Files.createTempDirectory("loci-ui-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).build();
    this.driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
  }

  /** A browser for pages under {@code base}, or the test is skipped (or failed on CI). */
  static Browser open(String base) throws IOException {
    if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(DRIVER)) {
      String why =
          "Chromium is not installed (no "
              + (Files.isExecutable(CHROMIUM) ? DRIVER : CHROMIUM)
              + "); install it with: sudo apt-get install -y chromium chromium-driver";
      if ("1".equals(System.getenv("LOCI_REQUIRE_BROWSER"))) {
        Assertions.fail(why + " (LOCI_REQUIRE_BROWSER=1 makes this a failure)");
      }
      Assumptions.abort(why);
    }
    return new Browser(base);
  }

  /** Opens {@code path} and waits for the document to be ready. */
  void go(String path) {
    driver.get(base + path);
    settle();
  }

  /** Waits until the document is loaded and htmx has no request in flight. */
  void settle() {
    new WebDriverWait(driver, Duration.ofSeconds(15))
        .until(
            d ->
                (Boolean)
                    ((JavascriptExecutor) d)
                        .executeScript(
                            "return document.readyState === 'complete'"
                                + " && !document.querySelector('.htmx-request');"));
  }

  /** The first element matching {@code css}, waiting up to 15 s for a page still loading. */
  WebElement find(String css) {
    return new WebDriverWait(driver, Duration.ofSeconds(15))
        .until(
            org.openqa.selenium.support.ui.ExpectedConditions.presenceOfElementLocated(
                By.cssSelector(css)));
  }

  /**
   * Clicks the element matching {@code css} and waits for what it loads: a new document (the old
   * one gone, then settled) or, when the click only swaps part of the page through htmx (no new
   * document within 5 s), the swap to settle. Checking {@code readyState} right after a click sees
   * the old document, still "complete", so a test could read the page being left.
   */
  void follow(String css) {
    WebElement page = find("html");
    find(css).click();
    try {
      new WebDriverWait(driver, Duration.ofSeconds(5)).until(d -> leftPage(page));
    } catch (org.openqa.selenium.TimeoutException partial) {
      // an htmx swap: the document stays
    }
    settle();
  }

  /**
   * Waits until {@code old} has left the page (a form submitted or a link followed has replaced the
   * document), then until the new one is {@link #settle}d: {@code readyState} alone is still
   * "complete" on the old document right after a click.
   */
  void awaitReplaced(WebElement old) {
    new WebDriverWait(driver, Duration.ofSeconds(15)).until(d -> leftPage(old));
    settle();
  }

  /**
   * Whether {@code element}'s document has been replaced: Selenium's {@code stalenessOf} knows only
   * the stale-element error, but Chromium may answer a call on an element of a document being torn
   * down with "Node with given id does not belong to the document" (BrowserTest failed once in CI
   * that way), which says the same.
   */
  private static boolean leftPage(WebElement element) {
    try {
      element.isEnabled();
      return false;
    } catch (org.openqa.selenium.StaleElementReferenceException gone) {
      return true;
    } catch (org.openqa.selenium.WebDriverException e) {
      if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
        return true;
      }
      throw e;
    }
  }

  List<WebElement> all(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  /** Saves a screenshot of the whole page (up to 4,000 pixels) as {@code target/screenshots/}. */
  void shot(String name) throws IOException {
    Files.createDirectories(SHOTS);
    org.openqa.selenium.Dimension size = driver.manage().window().getSize();
    long height = (Long) driver.executeScript("return document.documentElement.scrollHeight;");
    driver
        .manage()
        .window()
        .setSize(
            new org.openqa.selenium.Dimension(size.getWidth(), (int) Math.min(4000, height + 140)));
    try {
      Files.write(SHOTS.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
    } finally {
      driver.manage().window().setSize(size);
    }
  }

  /**
   * Runs axe-core over the page and fails on any serious or critical violation, naming each rule
   * and the elements it found.
   */
  @SuppressWarnings("unchecked")
  void assertAccessible(String page) {
    JavascriptExecutor js = driver;
    js.executeScript(axeSource());
    Object raw =
        js.executeAsyncScript(
            "var done = arguments[arguments.length - 1];"
                + "axe.run(document, {resultTypes: ['violations']})"
                + ".then(function (r) { done(r.violations.map(function (v) {"
                + "  return {id: v.id, impact: v.impact, help: v.help,"
                + "          nodes: v.nodes.map(function (n) { return n.target.join(' '); })};"
                + "})); }, function (e) { done([{id: 'axe-error', impact: 'critical',"
                + " help: String(e), nodes: []}]); });");
    List<String> serious = new ArrayList<>();
    for (Map<String, Object> v : (List<Map<String, Object>>) raw) {
      Object impact = v.get("impact");
      if ("serious".equals(impact) || "critical".equals(impact)) {
        serious.add(impact + " " + v.get("id") + " (" + v.get("help") + "): " + v.get("nodes"));
      }
    }
    assertThat(serious).as("axe-core serious violations on " + page).isEmpty();
  }

  private static String axeSource() {
    try (InputStream in = Browser.class.getResourceAsStream(AXE)) {
      if (in == null) {
        throw new IllegalStateException(AXE + " is missing from the test class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
