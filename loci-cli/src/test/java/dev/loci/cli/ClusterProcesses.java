package dev.loci.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.postgres.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code loci serve} processes over one PostgreSQL test database, each with its own data directory
 * under {@code dir}, and the HTTP calls the cluster tests make to them. Closing kills every process
 * and drops the database.
 */
final class ClusterProcesses implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("on http://[^:]+:(\\d+)");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  final TestDatabase db;
  final List<Process> processes = new ArrayList<>();
  private final Path dir;

  ClusterProcesses(Path dir, String dbPrefix) {
    this.dir = dir;
    this.db = TestDatabase.create(dbPrefix);
  }

  /** Starts a server process over data directory {@code dir/name}; returns its port. */
  int serve(String name) throws Exception {
    Path log = dir.resolve(name + "-" + processes.size() + ".log");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx384m",
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName(),
            "serve",
            "--data",
            dir.resolve(name).toString(),
            "--journal",
            db.url(),
            "--port",
            "0",
            "--embedding",
            "hashing");
    Process p =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    processes.add(p);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher m = LISTENING.matcher(Files.exists(log) ? Files.readString(log, UTF_8) : "");
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
      if (!p.isAlive()) {
        throw new AssertionError("server " + name + " exited: " + Files.readString(log, UTF_8));
      }
      Thread.sleep(50);
    }
    throw new AssertionError("server " + name + " did not start: " + Files.readString(log, UTF_8));
  }

  static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Adds a trace in namespace acme. */
  static HttpResponse<String> postTrace(int port, String body)
      throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/ns/acme/traces"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Adds a trace and returns its uid; an answer other than 201 is an {@link IOException}. */
  static String post(int port, String body) throws IOException, InterruptedException {
    HttpResponse<String> r = postTrace(port, body);
    if (r.statusCode() != 201) {
      throw new IOException("status " + r.statusCode() + ": " + r.body());
    }
    return uid(r.body());
  }

  static String uid(String body) {
    Matcher m = Pattern.compile("\"uid\":\"([^\"]+)\"").matcher(body);
    assertThat(m.find()).as(body).isTrue();
    return m.group(1);
  }

  static long field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
    assertThat(m.find()).as(name + " in " + json).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Override
  public void close() throws Exception {
    for (Process p : processes) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    db.close();
  }
}
