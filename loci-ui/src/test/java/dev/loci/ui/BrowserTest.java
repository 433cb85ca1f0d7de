package dev.loci.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UI in a real browser (headless Chromium): sign in, browse, search, a version diff, with
 * axe-core over every page and a screenshot of each under {@code target/screenshots/}.
 */
class BrowserTest {
  @TempDir static Path dir;
  static UiFixture ui;

  @BeforeAll
  static void start() {
    ui = new UiFixture(dir, true);
  }

  @AfterAll
  static void stop() {
    ui.close();
  }

  private Browser signedIn(String token) throws Exception {
    Browser b = Browser.open(ui.base);
    b.go("/ui");
    assertThat(b.driver.getCurrentUrl()).contains("/ui/login");
    b.find("#token").sendKeys(token);
    b.find("form.stack button[type=submit]").click();
    b.settle();
    assertThat(b.driver.getCurrentUrl()).endsWith("/ui");
    return b;
  }

  @Test
  void login_browseAndSearch_tracesFoundAndPagesAccessible() throws Exception {
    try (Browser b = Browser.open(ui.base)) {
      b.go("/ui/login");
      b.assertAccessible("login");
      b.shot("01-login");
    }
    try (Browser b = signedIn(UiFixture.READER)) {
      assertThat(b.find("main h1").getText()).isEqualTo("Namespaces");
      assertThat(b.find("main").getText())
          .contains("alice")
          .contains("docs")
          .doesNotContain("other");
      b.assertAccessible("namespaces");
      b.shot("02-namespaces");
      b.find("a[href='/ui/ns/acme.alice']").click();
      b.settle();
      b.assertAccessible("namespace overview");
      b.shot("03-namespace");
      b.go("/ui/ns/acme.alice/traces");
      assertThat(b.all("#results tbody tr")).hasSize(5);
      b.find("#f-q").sendKeys("bob");
      b.find("form.filters button[type=submit]").click();
      new org.openqa.selenium.support.ui.WebDriverWait(b.driver, java.time.Duration.ofSeconds(10))
          .until(d -> b.all("#results tbody tr").size() == 1);
      assertThat(b.find("#results tbody").getText()).contains("ship v1.1");
      assertThat(b.driver.getCurrentUrl()).contains("q=bob");
      b.assertAccessible("traces search");
      b.shot("04-traces-search");
      b.go("/ui/ns/acme.alice/traces?tag=xss");
      assertThat(b.find("#results tbody").getText()).contains("<script>alert(1)</script>");
      assertThat(b.all("#results script")).isEmpty();
    }
  }

  @Test
  void versionDiff_legalCredential_showsChainAndChangedLines() throws Exception {
    try (Browser b = signedIn(UiFixture.LEGAL)) {
      b.go("/ui/ns/acme.alice/traces/" + ui.revised.uid());
      assertThat(b.all("form.chain tbody tr")).hasSize(3);
      assertThat(b.all("table.diff tr.removed")).isNotEmpty();
      assertThat(b.find("table.diff").getText()).contains("\"owner\" : \"bob\"");
      // compare the first version with the newest
      b.all("form.chain tbody tr")
          .get(2)
          .findElement(org.openqa.selenium.By.cssSelector("input[name=older]"))
          .click();
      b.find("form.chain button[type=submit]").click();
      b.settle();
      assertThat(b.find("table.diff").getText()).contains("2026-12-01").contains("2026-12-15");
      b.assertAccessible("trace diff");
      b.shot("05-trace-diff");
    }
    try (Browser b = signedIn(UiFixture.READER)) {
      b.go("/ui/ns/acme.alice/traces/" + ui.revised.uid());
      assertThat(b.find("main").getText())
          .contains("only a legal credential sees the version chain");
      assertThat(b.all("table.diff")).isEmpty();
    }
  }
}
