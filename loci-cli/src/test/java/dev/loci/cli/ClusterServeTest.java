package dev.loci.cli;

import static dev.loci.cli.ClusterProcesses.field;
import static dev.loci.cli.ClusterProcesses.get;
import static dev.loci.cli.ClusterProcesses.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
  private ClusterProcesses cluster;
  private List<Process> processes;

  @TempDir Path dir;

  @BeforeEach
  void createDatabase() {
    cluster = new ClusterProcesses(dir, "loci_serve");
    processes = cluster.processes;
  }

  @AfterEach
  void stop() throws Exception {
    cluster.close();
  }

  private int serve(String name) throws Exception {
    return cluster.serve(name);
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

    // stopped, each data directory exports the same trace log, byte for byte
    for (Process p : processes) {
      p.destroy();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    List<List<String>> exports = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      Path out = dir.resolve(name + ".jsonl");
      CliRunner.Result r =
          new CliRunner(dir.resolve(name))
              .run(
                  "--journal", cluster.db.url(), "export", "--ns", "acme", "--out", out.toString());
      assertThat(r.exitCode()).as(r.err()).isZero();
      exports.add(Files.readAllLines(out));
    }
    assertThat(exports.get(0)).hasSize(counted(counts.get(0)));
    assertThat(exports).containsOnly(exports.get(0));
  }

  private static int counted(String traceCount) {
    return (int) field(traceCount, "count");
  }
}
