package dev.loci.ui;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.Trace;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryType;
import dev.loci.recall.DemoCorpus;
import dev.loci.recall.RecallMemory;
import dev.loci.server.Credential;
import dev.loci.server.Grant;
import dev.loci.server.LociServer;
import dev.loci.server.Role;
import dev.loci.server.ServerConfig;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A server with the UI mounted over a seeded data directory: traces in {@code acme.alice} (one with
 * three versions), the demo contract and runbook in the memory graph of {@code acme.docs}, two
 * governed candidates, and one token per role. {@link #credentials} false starts it with none.
 */
final class UiFixture implements AutoCloseable {
  static final Namespace ALICE = Namespace.of("acme.alice");
  static final Namespace DOCS = Namespace.of("acme.docs");
  static final String ADMIN = "admin-token-0123456789";
  static final String REVIEWER = "reviewer-token-0123456789";
  static final String READER = "reader-token-0123456789";
  static final String LEGAL = "legal-token-0123456789";
  static final String OUTSIDER = "outsider-token-0123456789";

  final LociServer server;
  final String base;
  final Trace revised;
  final List<String> candidates;
  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  UiFixture(Path dir, boolean credentials) {
    ServerConfig config = ServerConfig.defaults().withHost("127.0.0.1").withPort(0);
    if (credentials) {
      config =
          config.withCredentials(
              List.of(
                  credential("admin", ADMIN, Role.ADMIN, "*"),
                  credential("reviewer", REVIEWER, Role.REVIEWER, "*"),
                  credential("reader", READER, Role.READER, "acme.*"),
                  credential("legal", LEGAL, Role.LEGAL, "*"),
                  credential("outsider", OUTSIDER, Role.READER, "other.*")));
    }
    server =
        LociServer.builder(Loci.builder().dataDir(dir))
            .config(config)
            .web(LociUi::create)
            .retentionSweepEvery(Duration.ZERO)
            .lifecycleSweepEvery(Duration.ZERO)
            .drain(Duration.ofSeconds(10))
            .start();
    base = "http://127.0.0.1:" + server.port();
    Loci loci = server.loci();
    var traces = loci.traces();
    traces.add(ALICE, "{\"note\":\"prefers tea\",\"by\":\"agent-7\"}", List.of("preference"));
    Trace first =
        traces.add(
            ALICE,
            "{\"plan\":\"ship v1\",\"owner\":\"alice\",\"due\":\"2026-12-01\"}",
            List.of("plan", "work"));
    Trace second =
        traces.revise(
            ALICE,
            first.uid(),
            "{\"plan\":\"ship v1\",\"owner\":\"alice\",\"due\":\"2026-12-15\"}",
            List.of("plan", "work"));
    revised =
        traces.revise(
            ALICE,
            second.uid(),
            "{\"plan\":\"ship v1.1\",\"owner\":\"bob\",\"due\":\"2026-12-15\"}",
            List.of("plan", "work"));
    traces.add(ALICE, "{\"note\":\"<script>alert(1)</script>\"}", List.of("xss"));
    traces.add(Namespace.of("other.team"), "{\"note\":\"not for acme readers\"}", List.of());
    RecallMemory recall = RecallMemory.of(loci);
    for (DemoCorpus.Document d : DemoCorpus.documents()) {
      recall.ingest(DOCS, d.domainPack(), d.document(), RecallMemory.Progress.NONE);
    }
    dev.loci.pathway.PathwayMemory pathways = dev.loci.pathway.PathwayMemory.of(loci);
    String proven =
        pathways
            .insert(
                ALICE,
                dev.loci.pathway.PathwayTrace.builder(
                        "scrum_review", "crates/queryd/src/service.rs")
                    .finalVerdict("approved after two fixes"))
            .trace()
            .traceUid();
    for (int i = 0; i < 4; i++) {
      pathways.recordReplay(ALICE, proven, true);
    }
    String failing =
        pathways
            .insert(
                ALICE,
                dev.loci.pathway.PathwayTrace.builder("staffing.fill", "jobs/42/req.md")
                    .finalVerdict("filled"))
            .trace()
            .traceUid();
    for (int i = 0; i < 3; i++) {
      pathways.recordReplay(ALICE, failing, false);
    }
    pathways.insert(
        ALICE, dev.loci.pathway.PathwayTrace.builder("scrum_review", "crates/gateway/src/lib.rs"));
    GovernedMemory governed = GovernedMemory.of(loci);
    candidates =
        List.of(
            governed
                .propose(ALICE, MemoryDraft.of(MemoryType.PREFERENCE, "Alice prefers tea", "agent"))
                .memory()
                .id(),
            governed
                .propose(
                    ALICE, MemoryDraft.of(MemoryType.PROJECT, "Release v1.1 on Dec 15", "agent"))
                .memory()
                .id());
  }

  private static Credential credential(String id, String token, Role role, String grant) {
    return new Credential(id, Credential.hashHex(token), role, List.of(Grant.of(grant)));
  }

  /** A GET with the cookie header {@code cookie} (may be empty). */
  HttpResponse<String> get(String path, String cookie) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).GET();
    if (!cookie.isEmpty()) {
      b.header("Cookie", cookie);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A form POST. */
  HttpResponse<String> post(String path, String cookie, Map<String, String> form)
      throws IOException, InterruptedException {
    String body =
        form.entrySet().stream()
            .map(
                e ->
                    URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                        + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (!cookie.isEmpty()) {
      b.header("Cookie", cookie);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A session signed in with {@code token}: its cookie and CSRF token. */
  Session login(String token) throws IOException, InterruptedException {
    HttpResponse<String> page = get("/ui/login", "");
    String cookie = cookie(page);
    HttpResponse<String> r =
        post("/ui/login", cookie, Map.of("_csrf", csrf(page.body()), "token", token));
    if (r.statusCode() != 303) {
      throw new IllegalStateException("login failed: " + r.statusCode() + " " + r.body());
    }
    String signed = cookie(r);
    return new Session(signed, csrf(get("/ui", signed).body()));
  }

  /** A signed-in session. */
  record Session(String cookie, String csrf) {}

  static String cookie(HttpResponse<String> r) {
    String set = r.headers().firstValue("Set-Cookie").orElseThrow();
    return set.substring(0, set.indexOf(';'));
  }

  static String csrf(String html) {
    Matcher m = Pattern.compile("name=\"csrf-token\" content=\"([^\"]+)\"").matcher(html);
    if (!m.find()) {
      throw new IllegalStateException("no CSRF token in the page");
    }
    return m.group(1);
  }

  @Override
  public void close() {
    server.close();
  }
}
