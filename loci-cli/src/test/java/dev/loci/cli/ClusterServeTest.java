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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code loci serve} processes over one PostgreSQL journal, each with its own data directory:
 * writers on each, a SIGKILL of one mid-load, and every server converging on the same records, with
 * no acknowledged write lost.
 */
class ClusterServeTest {
  private static final Pattern LISTENING = Pattern.compile("on http://[^:]+:(\\d+)");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private TestDatabase db;
  private final List<Process> processes = new ArrayList<>();

  @TempDir Path dir;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_serve");
  }

  @AfterEach
  void stop() throws Exception {
    for (Process p : processes) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    db.close();
  }

  /** A server process; returns its port once it listens. */
  private int serve(String name) throws Exception {
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

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String post(int port, String body) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/ns/acme/traces"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 201) {
      throw new IOException("status " + r.statusCode() + ": " + r.body());
    }
    Matcher m = Pattern.compile("\"uid\":\"([^\"]+)\"").matcher(r.body());
    assertThat(m.find()).isTrue();
    return m.group(1);
  }

  private static long field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
    assertThat(m.find()).as(name + " in " + json).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Test
  void threeServers_writersOnEachAndOneKilled_allConvergeWithEveryAcknowledgedWrite()
      throws Exception {
    int[] ports = {serve("a"), serve("b"), serve("c")};
    Map<String, String> acknowledged = new ConcurrentHashMap<>(); // uid -> content
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> writers = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      int server = s;
      Thread w =
          new Thread(
              () -> {
                for (int i = 0; !stop.get(); i++) {
                  String content = "{\"server\":" + server + ",\"i\":" + i + "}";
                  try {
                    acknowledged.put(post(ports[server], "{\"content\":" + content + "}"), content);
                  } catch (IOException e) {
                    // server b is being killed: an unacknowledged write may or may not exist
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              });
      w.start();
      writers.add(w);
    }
    Thread.sleep(1500);
    processes.get(1).destroyForcibly(); // SIGKILL b mid-load
    assertThat(processes.get(1).waitFor(10, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(1000);
    ports[1] = serve("b"); // restart over the same data directory: it catches up
    Thread.sleep(1000);
    stop.set(true);
    for (Thread w : writers) {
      w.join(30_000);
    }
    assertThat(acknowledged.size()).isGreaterThan(30);

    // every server reaches the same head and holds every acknowledged write
    long head = 0;
    for (int port : ports) {
      head = Math.max(head, field(get(port, "/health").body(), "journal_head"));
    }
    for (int port : ports) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (field(get(port, "/health").body(), "journal_seq") < head
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      String health = get(port, "/health").body();
      assertThat(field(health, "journal_seq")).as(health).isEqualTo(head);
      assertThat(field(health, "journal_lag")).isZero();
    }
    List<String> counts = new ArrayList<>();
    for (int port : ports) {
      counts.add(get(port, "/v1/ns/acme/trace-count").body());
    }
    assertThat(counts).containsOnly(counts.get(0));
    for (Map.Entry<String, String> e : acknowledged.entrySet()) {
      List<String> bodies = new ArrayList<>();
      for (int port : ports) {
        HttpResponse<String> r = get(port, "/v1/ns/acme/traces/" + e.getKey());
        assertThat(r.statusCode()).as("trace " + e.getKey() + " on port " + port).isEqualTo(200);
        assertThat(r.body()).contains(e.getValue());
        bodies.add(r.body());
      }
      assertThat(bodies).containsOnly(bodies.get(0));
    }
  }
}
