package dev.loci.cli;

import static dev.loci.cli.ClusterProcesses.get;
import static dev.loci.cli.ClusterProcesses.postTrace;
import static dev.loci.cli.ClusterProcesses.uid;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code loci serve} process whose PostgreSQL journal fails under load: connections cut by {@code
 * pg_terminate_backend}, then the table refusing every insert. Writes answer 201 or 503 with {@code
 * Retry-After} (never half-applied, never a 500), reads go on, {@code /health} says degraded with
 * the reason, and writes resume without a restart.
 */
class ClusterFailureServeTest {
  private ClusterProcesses cluster;

  @TempDir Path dir;

  @BeforeEach
  void createDatabase() {
    cluster = new ClusterProcesses(dir, "loci_fail");
  }

  @AfterEach
  void stop() throws Exception {
    cluster.close();
  }

  private void sql(String statement) throws Exception {
    try (Connection c = cluster.db.connect();
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  @Test
  void databaseFailingUnderLoad_writes503WithRetryAfter_readsServe_degradedThenResumes()
      throws Exception {
    int port = cluster.serve("a");
    Map<String, String> acknowledged = new ConcurrentHashMap<>(); // uid -> content
    Set<String> refused = ConcurrentHashMap.newKeySet();
    List<String> unexpected = new ArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      int writer = w;
      Thread t =
          new Thread(
              () -> {
                for (int i = 0; !stop.get(); i++) {
                  String content = "{\"w\":" + writer + ",\"i\":" + i + "}";
                  try {
                    HttpResponse<String> r = postTrace(port, "{\"content\":" + content + "}");
                    if (r.statusCode() == 201) {
                      acknowledged.put(uid(r.body()), content);
                    } else if (r.statusCode() == 503
                        && r.headers().firstValue("Retry-After").isPresent()
                        && r.body().contains("journal-unavailable")) {
                      refused.add(content);
                    } else {
                      synchronized (unexpected) {
                        unexpected.add(r.statusCode() + " " + r.headers().map() + " " + r.body());
                      }
                    }
                  } catch (Exception e) {
                    synchronized (unexpected) {
                      unexpected.add(e.toString());
                    }
                  }
                }
              });
      t.start();
      writers.add(t);
    }
    for (int round = 0; round < 10; round++) {
      Thread.sleep(150);
      sql(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
              + cluster.db.name
              + "' AND pid <> pg_backend_pid()");
    }
    Thread.sleep(300);
    stop.set(true);
    for (Thread t : writers) {
      t.join(30_000);
    }
    assertThat(unexpected).isEmpty();
    assertThat(acknowledged).hasSizeGreaterThan(10);

    // the table refuses every insert: 503 with Retry-After, reads serve, /health degraded
    String readable = acknowledged.keySet().iterator().next();
    sql("ALTER TABLE loci_batch RENAME TO loci_batch_away");
    HttpResponse<String> down = postTrace(port, "{\"content\":{\"down\":true}}");
    assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
    assertThat(down.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(down.body()).contains("journal-unavailable");
    HttpResponse<String> read = get(port, "/v1/ns/acme/traces/" + readable);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).contains(acknowledged.get(readable));
    String degraded = get(port, "/health").body();
    assertThat(degraded).contains("\"status\":\"degraded\"").contains("loci_batch");
    assertThat(degraded).doesNotContain("password");

    sql("ALTER TABLE loci_batch_away RENAME TO loci_batch");
    HttpResponse<String> up = postTrace(port, "{\"content\":{\"up\":true}}");
    assertThat(up.statusCode()).as(up.body()).isEqualTo(201); // no restart
    acknowledged.put(uid(up.body()), "{\"up\":true}");
    assertThat(get(port, "/health").body()).contains("\"status\":\"ok\"");

    // a new server replays exactly the acknowledged writes: none lost, none of the refused
    Process first = cluster.processes.get(0);
    first.destroy();
    assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
    Path out = dir.resolve("joined.jsonl");
    CliRunner.Result r =
        new CliRunner(dir.resolve("joined"))
            .run("--journal", cluster.db.url(), "export", "--ns", "acme", "--out", out.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    Map<String, String> exported = new HashMap<>(); // uid -> content
    ObjectMapper json = new ObjectMapper();
    for (String line : Files.readAllLines(out)) {
      JsonNode trace = json.readTree(line).get("trace");
      exported.put(trace.get("uid").asText(), trace.get("content").toString());
    }
    assertThat(exported).isEqualTo(acknowledged);
    assertThat(exported.values()).doesNotContainAnyElementsOf(refused);
  }
}
