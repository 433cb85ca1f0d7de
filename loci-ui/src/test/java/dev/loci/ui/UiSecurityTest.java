package dev.loci.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.govern.GovernedMemory;
import dev.loci.govern.MemoryStatus;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The UI's security rules over plain HTTP: sessions, CSRF, CSP, roles, namespaces, escaping. */
class UiSecurityTest {
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

  @Test
  void login_knownToken_setsStrictHttpOnlyCookieAndNewSession() throws Exception {
    HttpResponse<String> form = ui.get("/ui/login", "");
    String before = UiFixture.cookie(form);
    assertThat(form.headers().firstValue("Set-Cookie").orElseThrow())
        .contains("HttpOnly")
        .contains("SameSite=Strict")
        .contains("Path=/")
        .doesNotContain("Secure"); // plain HTTP on loopback
    HttpResponse<String> r =
        ui.post(
            "/ui/login",
            before,
            Map.of("_csrf", UiFixture.csrf(form.body()), "token", UiFixture.READER));
    assertThat(r.statusCode()).isEqualTo(303);
    assertThat(r.headers().firstValue("Location")).hasValue("/ui");
    String after = UiFixture.cookie(r);
    assertThat(after).isNotEqualTo(before);
    assertThat(after).doesNotContain(UiFixture.READER);
    assertThat(ui.get("/ui", after).statusCode()).isEqualTo(200);
    assertThat(ui.get("/ui", before).statusCode()).isEqualTo(303); // the old session is gone
  }

  @Test
  void login_unknownToken_401AndNoSession() throws Exception {
    HttpResponse<String> form = ui.get("/ui/login", "");
    HttpResponse<String> r =
        ui.post(
            "/ui/login",
            UiFixture.cookie(form),
            Map.of("_csrf", UiFixture.csrf(form.body()), "token", "guess"));
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.body()).contains("not known to this server");
  }

  @Test
  void login_withoutCsrf_refused() throws Exception {
    HttpResponse<String> form = ui.get("/ui/login", "");
    HttpResponse<String> r =
        ui.post("/ui/login", UiFixture.cookie(form), Map.of("token", UiFixture.ADMIN));
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.body()).contains("CSRF");
  }

  @Test
  void pages_noSession_redirectToLoginWithNext() throws Exception {
    HttpResponse<String> r = ui.get("/ui/ns/acme.alice/traces?q=tea", "");
    assertThat(r.statusCode()).isEqualTo(303);
    assertThat(r.headers().firstValue("Location").orElseThrow())
        .isEqualTo("/ui/login?next=%2Fui%2Fns%2Facme.alice%2Ftraces%3Fq%3Dtea");
  }

  @Test
  void login_nextOutsideUi_goesToUiInstead() throws Exception {
    for (String next : new String[] {"//evil.example/ui", "https://evil.example/ui", "/v1/x"}) {
      HttpResponse<String> form = ui.get("/ui/login", "");
      HttpResponse<String> r =
          ui.post(
              "/ui/login",
              UiFixture.cookie(form),
              Map.of(
                  "_csrf", UiFixture.csrf(form.body()), "token", UiFixture.READER, "next", next));
      assertThat(r.headers().firstValue("Location")).as(next).hasValue("/ui");
    }
  }

  @Test
  void everyPage_strictCspAndNoInlineScript() throws Exception {
    UiFixture.Session s = ui.login(UiFixture.LEGAL);
    for (String path :
        new String[] {
          "/ui",
          "/ui/ns/acme.alice",
          "/ui/ns/acme.alice/traces",
          "/ui/ns/acme.alice/traces/" + ui.revised.uid(),
          "/ui/ns/acme.alice/review",
          "/ui/ns/acme.alice/conflicts",
          "/ui/ns/acme.alice/state",
          "/ui/ns/acme.docs/graph",
          "/ui/ns/acme.docs/recall?q=termination",
          "/ui/login",
          "/"
        }) {
      HttpResponse<String> r = ui.get(path, s.cookie());
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Security-Policy").orElseThrow())
          .as(path)
          .contains("script-src 'self'")
          .contains("default-src 'none'")
          .doesNotContain("unsafe-inline");
      assertThat(r.body()).as(path).doesNotContainPattern("<script(?![^>]*\\ssrc=)");
      assertThat(r.body()).as(path).doesNotContain(" style=").doesNotContain("<style");
      assertThat(r.body()).as(path).doesNotContain("http://").doesNotContain("https://");
    }
  }

  @Test
  void traceContent_isEscaped() throws Exception {
    UiFixture.Session s = ui.login(UiFixture.READER);
    String body = ui.get("/ui/ns/acme.alice/traces?tag=xss", s.cookie()).body();
    assertThat(body).contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    assertThat(body).doesNotContain("<script>alert(1)");
  }

  @Test
  void readerForgedPromote_refusedAndNothingChanges() throws Exception {
    UiFixture.Session reader = ui.login(UiFixture.READER);
    String id = ui.candidates.get(1);
    assertThat(ui.get("/ui/ns/acme.alice/review", reader.cookie()).body())
        .contains("Release v1.1")
        .doesNotContain("/review/" + id + "/promote");
    HttpResponse<String> r =
        ui.post(
            "/ui/ns/acme.alice/review/" + id + "/promote",
            reader.cookie(),
            Map.of("_csrf", reader.csrf()));
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.body()).contains("reviewer role");
    assertThat(GovernedMemory.of(ui.server.loci()).get(UiFixture.ALICE, id).status())
        .isEqualTo(MemoryStatus.CANDIDATE);
  }

  @Test
  void reviewerPromote_withoutCsrf_refusedAndNothingChanges() throws Exception {
    UiFixture.Session reviewer = ui.login(UiFixture.REVIEWER);
    String id = ui.candidates.get(1);
    HttpResponse<String> r =
        ui.post(
            "/ui/ns/acme.alice/review/" + id + "/promote",
            reviewer.cookie(),
            Map.of("_csrf", "forged"));
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(GovernedMemory.of(ui.server.loci()).get(UiFixture.ALICE, id).status())
        .isEqualTo(MemoryStatus.CANDIDATE);
  }

  @Test
  void namespaceOutsideGrant_403AndNotListed() throws Exception {
    UiFixture.Session outsider = ui.login(UiFixture.OUTSIDER);
    HttpResponse<String> r = ui.get("/ui/ns/acme.alice/traces", outsider.cookie());
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.body()).doesNotContain("prefers tea");
    assertThat(ui.get("/ui", outsider.cookie()).body()).contains("team").doesNotContain("alice");
  }

  @Test
  void badInput_400NamingTheField() throws Exception {
    UiFixture.Session s = ui.login(UiFixture.READER);
    HttpResponse<String> r = ui.get("/ui/ns/acme.alice/traces?from=yesterday", s.cookie());
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("from: expected a date as yyyy-mm-dd");
    assertThat(ui.get("/ui/ns/acme.docs/recall?q=x&amp;k=500", s.cookie()).statusCode())
        .isEqualTo(200);
    assertThat(ui.get("/ui/ns/acme.docs/recall?q=x&k=500", s.cookie()).body())
        .contains("k: expected a whole number from 1 to 50");
    assertThat(ui.get("/ui/ns/acme.docs/recall?q=x&mode=fast", s.cookie()).statusCode())
        .isEqualTo(400);
  }

  @Test
  void revokedCredential_endsItsSessions() throws Exception {
    UiFixture.Session s = ui.login(UiFixture.ADMIN);
    assertThat(ui.get("/ui", s.cookie()).statusCode()).isEqualTo(200);
    assertThat(ui.get("/ui/assets/htmx.min.js", "").statusCode()).isEqualTo(200);
    assertThat(ui.get("/ui/assets/..%2Fopenapi.json", "").statusCode()).isEqualTo(404);
  }
}
