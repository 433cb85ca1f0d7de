package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.FuzzBudget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * What the route-family fuzz targets share: one real server over a temporary data directory for the
 * whole run, routes whose path names records made at start (a governed memory, an entity, an
 * interaction, a subject's record), and the invariants every fuzzed request is held to: never a
 * 5xx; a 4xx is a problem with a detail that names no Java type; a refused request writes nothing
 * (the journal's last sequence is unchanged); the work stays within the linear budget of {@link
 * FuzzBudget}. Not thread-safe: Jazzer runs one input at a time.
 */
final class RouteBodyFuzzing implements AutoCloseable {
  /**
   * One route a target fuzzes: its method and path, where {@code {id}} is a record made at start.
   */
  record Target(String method, String path, boolean queryFuzzed) {}

  static final String NS = "/v1/ns/fuzz";

  private static final java.util.Set<String> LOOPBACK = java.util.Set.of("127.0.0.1", "localhost");

  private final Path dir;
  private final ServerFixture http;
  private final List<Target> targets;

  private RouteBodyFuzzing(Path dir, ServerFixture http, List<Target> targets) {
    this.dir = dir;
    this.http = http;
    this.targets = targets;
  }

  /**
   * Starts a server, runs {@code setup} against it (which returns the id that {@code {id}} in the
   * targets' paths stands for) and returns the fuzzing harness.
   */
  static RouteBodyFuzzing start(
      Function<ServerFixture, String> setup, Function<String, List<Target>> targets) {
    try {
      Path dir = Files.createTempDirectory("loci-route-fuzz-");
      ServerFixture http = new ServerFixture(dir);
      String id = setup.apply(http);
      return new RouteBodyFuzzing(dir, http, targets.apply(id));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The id in a 201/200 answer's {@code field.id}, or fails the setup naming the answer. */
  static String created(ServerFixture.Reply r, String field) {
    assertThat(r.status()).as(r.body()).isBetween(200, 201);
    JsonNode n = r.json();
    return (field.isEmpty() ? n : n.get(field)).get("id").asText();
  }

  /** Sends one fuzzed request (a target picked by the input, then the body) and checks it. */
  void fuzz(FuzzedDataProvider data) {
    Target t = targets.get(data.consumeInt(0, targets.size() - 1));
    String query = t.queryFuzzed() ? data.consumeString(64) : "";
    String body = data.consumeRemainingAsString();
    String path =
        t.path() + (query.isEmpty() ? "" : "?" + URLEncoder.encode(query, StandardCharsets.UTF_8));
    long seq = http.server.loci().lastSeq();
    long start = FuzzBudget.start();
    ServerFixture.Reply r;
    // the test's own server is the only destination (Jazzer's SSRF detector refuses others)
    try (SilentCloseable allowed =
        BugDetectors.allowNetworkConnections(
            (host, port) -> port == http.server.port() && LOOPBACK.contains(host))) {
      r =
          http.send(
              t.method(),
              path,
              Optional.empty(),
              t.method().equals("GET") ? Optional.empty() : Optional.of(body));
    }
    String what = t.method() + " " + path + " " + body;
    assertThat(r.status()).as("%s -> %s", what, r.body()).isBetween(200, 499);
    if (r.status() >= 400) {
      assertThat(r.header("Content-Type"))
          .as(what)
          .hasValueSatisfying(ct -> assertThat(ct).startsWith("application/problem+json"));
      String detail = r.json().path("detail").asText();
      assertThat(detail).as(what).isNotBlank();
      for (String javaName : List.of("java.", "dev.loci.", "com.fasterxml", "Exception")) {
        if (!body.contains(javaName) && !query.contains(javaName)) {
          assertThat(detail).as(what).doesNotContain(javaName);
        }
      }
      assertThat(http.server.loci().lastSeq()).as("a refused %s wrote", what).isEqualTo(seq);
    }
    FuzzBudget.assertLinear(start, body.getBytes(StandardCharsets.UTF_8).length);
  }

  @Override
  public void close() {
    http.close();
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
