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
    b.follow("form.stack button[type=submit]");
    assertThat(b.driver.getCurrentUrl()).endsWith("/ui");
    return b;
  }

  @Test
  void login_browseAndSearch_tracesFoundAndPagesAccessible() throws Exception {
    try (Browser b = Browser.open(ui.base)) {
      b.go("/");
      assertThat(b.find("a.card[href='/ui']").getText()).contains("Web UI");
      b.assertAccessible("landing");
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
      b.follow("a[href='/ui/ns/acme.alice']");
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
      org.openqa.selenium.WebElement shown = b.find("table.diff");
      b.all("form.chain tbody tr")
          .get(2)
          .findElement(org.openqa.selenium.By.cssSelector("input[name=older]"))
          .click();
      b.find("form.chain button[type=submit]").click();
      b.awaitReplaced(shown);
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

  @Test
  void recall_twoModes_pathGraphsDrawnSideBySide() throws Exception {
    try (Browser b = signedIn(UiFixture.READER)) {
      b.go("/ui/ns/acme.docs/recall");
      b.assertAccessible("recall explorer (empty)");
      b.find("#r-q").sendKeys("termination for convenience notice");
      new org.openqa.selenium.support.ui.Select(b.find("#r-mode")).selectByValue("hybrid");
      new org.openqa.selenium.support.ui.Select(b.find("#r-compare"))
          .selectByValue("weighted_graph");
      b.follow("form.recall-form button[type=submit]");
      assertThat(b.all("section.run")).hasSize(2);
      assertThat(b.all("section.run h2").stream().map(e -> e.getText()).toList())
          .containsExactly("hybrid", "weighted_graph");
      assertThat(b.all("svg.path-graph")).isNotEmpty();
      assertThat(b.all("svg.path-graph g.node")).isNotEmpty();
      // each run's overview draws every result's path in one graph, edges included
      assertThat(b.all("details.overview svg.path-graph")).hasSize(2);
      assertThat(
              b.all("section.run")
                  .get(1)
                  .findElements(org.openqa.selenium.By.cssSelector("details.overview g.edge")))
          .isNotEmpty();
      assertThat(b.all("svg.path-graph rect").get(0).getSize().getWidth()).isGreaterThan(20);
      b.assertAccessible("recall explorer");
      b.shot("06-recall");
      b.follow("section.run article.result h3 a");
      assertThat(b.find("main").getText()).contains("Evidence").contains("Edges out");
      b.assertAccessible("graph node");
      b.shot("07-node");
      b.go("/ui/ns/acme.docs/graph");
      b.assertAccessible("graph");
      b.shot("08-graph");
      b.follow("a[href$='graph?type=step']");
      assertThat(b.all("main table.data").get(2).getText())
          .contains("02_payments_runbook")
          .doesNotContain("01_supply_agreement");
    }
  }

  @Test
  void promote_reviewer_candidateBecomesTrusted_readerSeesNoButton() throws Exception {
    try (Browser b = signedIn(UiFixture.READER)) {
      b.go("/ui/ns/acme.alice/review");
      assertThat(b.find("main").getText()).contains("Alice prefers tea");
      assertThat(b.all("button.primary")).noneMatch(e -> e.getText().equals("Promote"));
      b.assertAccessible("review queue (reader)");
      // the reader forges the promote the page did not offer, with its own session's CSRF token
      Object status =
          b.driver.executeAsyncScript(
              "var done = arguments[arguments.length - 1];"
                  + "fetch('/ui/ns/acme.alice/review/' + arguments[0] + '/promote', {method: 'POST',"
                  + " headers: {'X-CSRF-Token': document.querySelector('meta[name=csrf-token]')"
                  + ".content}}).then(function (r) { done(r.status); });",
              ui.candidates.get(1));
      assertThat(status).isEqualTo(403L);
    }
    assertThat(
            dev.loci.govern.GovernedMemory.of(ui.server.loci())
                .get(UiFixture.ALICE, ui.candidates.get(1))
                .status())
        .isEqualTo(dev.loci.govern.MemoryStatus.CANDIDATE);
    try (Browser b = signedIn(UiFixture.REVIEWER)) {
      b.go("/ui/ns/acme.alice/review");
      b.assertAccessible("review queue");
      b.shot("09-review");
      b.find("#cand-" + ui.candidates.get(0) + " button.primary").click();
      new org.openqa.selenium.support.ui.WebDriverWait(b.driver, java.time.Duration.ofSeconds(10))
          .until(d -> !b.all("#queue p.ok").isEmpty());
      assertThat(b.find("#queue p.ok").getText()).contains("Promoted");
      assertThat(b.all("#cand-" + ui.candidates.get(0))).isEmpty();
      b.shot("10-promoted");
    }
    assertThat(
            dev.loci.govern.GovernedMemory.of(ui.server.loci())
                .get(UiFixture.ALICE, ui.candidates.get(0))
                .status())
        .isEqualTo(dev.loci.govern.MemoryStatus.ACTIVE);
  }

  @Test
  void operationsSubjectsAndPathways_admin_chartsDrawnAndPagesAccessible() throws Exception {
    try (Browser b = signedIn(UiFixture.ADMIN)) {
      b.go("/ui/ns/acme.docs/recall?q=payment+retry&mode=lexical&compare=none");
      b.go("/ui/ops");
      assertThat(b.find("main").getText()).contains("healthy").contains("journal");
      new org.openqa.selenium.support.ui.WebDriverWait(b.driver, java.time.Duration.ofSeconds(10))
          .until(d -> b.all("canvas.chart[data-drawn=true]").size() == 2);
      b.follow("form[action='/ui/ops'] button");
      assertThat(b.find("main").getText()).contains("Verified:").contains("nothing lost");
      b.assertAccessible("operations");
      b.shot("11-ops");
      b.go("/ui/subjects?subject=alice&verify=1");
      assertThat(b.find("main").getText())
          .contains("Manifest of")
          .contains("memory acme.alice")
          .contains("kept until erased")
          .contains("Audit logs intact");
      b.assertAccessible("subjects");
      b.shot("12-subjects");
      b.go("/ui/ns/acme.alice/pathways");
      assertThat(b.find("main").getText())
          .contains("passed probation")
          .contains("retired by the probation gate")
          .contains("on probation (0 of 3 replays)");
      b.assertAccessible("pathways");
      b.shot("13-pathways");
      b.go("/ui/ns/acme.alice/conflicts");
      assertThat(b.find("main").getText()).contains("drink").contains("open");
      b.assertAccessible("conflicts");
      b.shot("16-conflict-open");
      b.all("input[name=winner]").get(0).click();
      b.follow("section.result button.primary");
      assertThat(b.find("section.result h2").getText()).contains("resolved");
      b.shot("17-conflict-resolved");
      b.go("/ui/ns/acme.alice/state");
      b.assertAccessible("state");
      b.shot("14-state");
    }
  }

  @Test
  void reader_opsHiddenAndRefused() throws Exception {
    try (Browser b = signedIn(UiFixture.READER)) {
      assertThat(b.all("nav a[href='/ui/ops']")).isEmpty();
      b.go("/ui/ops");
      assertThat(b.find("main").getText()).contains("403").contains("admin role");
      b.assertAccessible("error page");
      b.shot("15-forbidden");
    }
  }
}
