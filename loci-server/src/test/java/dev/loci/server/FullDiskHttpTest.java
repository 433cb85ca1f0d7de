package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.SmallDisk;
import dev.loci.server.ServerFixture.Reply;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk under a running server (a small tmpfs mounted for the test; skipped, saying why,
 * where mounting is not allowed): trace writes and ingests at full disk answer 201 or 503 and
 * nothing else, recall never answers 500 (a Lucene writer closed by a failed flush is reopened),
 * {@code /health} and {@code /metrics} say degraded with the reason, writes resume once space is
 * freed, and a restart shows exactly the acknowledged writes: a write reported as failed never
 * comes back, so a client that retries it makes no duplicate.
 */
class FullDiskHttpTest {
  private static final String NS = "/v1/ns/disk";

  @TempDir Path tmp;
  private Path mount;
  private ServerFixture http;

  @BeforeEach
  void mountSmallFilesystem() throws Exception {
    mount = SmallDisk.mount(tmp.resolve("small"), "12m");
  }

  @AfterEach
  void unmount() throws Exception {
    if (http != null) {
      http.close();
    }
    SmallDisk.unmount(mount);
  }

  private static String ingest(String name, int units) {
    StringBuilder text = new StringBuilder("# " + name + "\n\n");
    for (int i = 1; i <= units; i++) {
      text.append(i).append(". The ").append(name).append(" clause ").append(i).append(" holds ");
      text.append("x".repeat(40)).append(".\n\n");
    }
    ObjectNode body = ServerFixture.MAPPER.createObjectNode().put("pack", "markdown:contract");
    body.putArray("documents").addObject().put("path", name + ".md").put("text", text.toString());
    return body.toString();
  }

  private String recall(String word) {
    return "{\"query\":\"" + word + " clause\",\"mode\":\"lexical\",\"k\":3}";
  }

  /** Fills the file system until a write fails; returns the filler file. */
  private Path fill() throws IOException {
    Path filler = mount.resolve("filler");
    byte[] chunk = new byte[16 * 1024];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(chunk);
        out.flush();
      }
    } catch (IOException full) {
      // the disk is full
    }
    return filler;
  }

  /** Every item of a paged listing. */
  private List<JsonNode> pages(String path) {
    List<JsonNode> out = new ArrayList<>();
    String cursor = "";
    do {
      JsonNode page = http.get(path + "?limit=100" + cursor).json();
      page.get("items").forEach(out::add);
      cursor = page.hasNonNull("next_cursor") ? "&cursor=" + page.get("next_cursor").asText() : "";
    } while (!cursor.isEmpty());
    return out;
  }

  @Test
  void writesAtFullDisk_exactOutcomesDegradedHealthResumeAndRestartShowsAcknowledged()
      throws Exception {
    Path data = mount.resolve("data");
    http = new ServerFixture(data);
    assertThat(http.post(NS + "/ingest", ingest("warmup", 5)).status()).isEqualTo(200);
    assertThat(http.post(NS + "/recall", recall("warmup")).status()).isEqualTo(200);

    Path filler = fill();
    Set<String> tracesAcked = new HashSet<>();
    Set<String> docsAcked = new HashSet<>();
    List<String> refused = new ArrayList<>();
    boolean sawDegraded = false;
    for (int i = 0; i < 600 && refused.size() < 6; i++) {
      String tag = "t" + i;
      Reply t =
          http.post(
              NS + "/traces",
              "{\"content\":{\"n\":\"" + "y".repeat(4000) + "\"},\"tags\":[\"" + tag + "\"]}");
      assertThat(t.status()).as(t.body()).isIn(201, 503);
      if (t.status() == 201) {
        tracesAcked.add(tag);
      } else {
        refused.add(tag);
        assertThat(t.header("Retry-After")).isPresent();
        JsonNode health = http.get("/health").json();
        sawDegraded |= health.get("status").asText().equals("degraded");
        if (health.get("status").asText().equals("degraded")) {
          assertThat(health.get("reason").asText()).contains("disk full");
          assertThat(http.get("/metrics").body())
              .contains("loci_degraded 1", "loci_degraded_info{reason=\"disk full");
          HttpApiTest.assertProblem(http.post("/v1/admin/resume", "{}"), 503, "writes-refused");
        }
      }
      String doc = "doc" + i;
      Reply in = http.post(NS + "/ingest", ingest(doc, 12));
      assertThat(in.status()).as(in.body()).isIn(200, 503);
      if (in.status() == 200) {
        docsAcked.add(doc);
      } else {
        refused.add(doc);
      }
      Reply r = http.post(NS + "/recall", recall(doc));
      assertThat(r.status()).as(r.body()).isIn(200, 503);
    }
    assertThat(refused).as("the disk filled up").isNotEmpty();
    assertThat(sawDegraded).as("health said degraded while writes were refused").isTrue();

    Files.delete(filler);
    assertThat(http.get("/health").json().get("status").asText()).isEqualTo("ok");
    assertThat(http.get("/metrics").body()).contains("loci_degraded 0");
    assertThat(http.post("/v1/admin/resume", "{}").body()).isEqualTo("{\"status\":\"ok\"}");
    Reply after = http.post(NS + "/traces", "{\"content\":{\"n\":1},\"tags\":[\"after\"]}");
    assertThat(after.status()).as(after.body()).isEqualTo(201);
    tracesAcked.add("after");
    assertThat(http.post(NS + "/ingest", ingest("afterdoc", 3)).status()).isEqualTo(200);
    docsAcked.add("afterdoc");
    Reply found = http.post(NS + "/recall", recall("afterdoc"));
    assertThat(found.status()).as(found.body()).isEqualTo(200);
    assertThat(found.body()).contains("afterdoc:");
    http.close();

    http = new ServerFixture(data);
    Set<String> tracesSeen = new HashSet<>();
    for (JsonNode t : pages(NS + "/traces")) {
      t.get("tags").forEach(tag -> tracesSeen.add(tag.asText()));
    }
    assertThat(tracesSeen).isEqualTo(tracesAcked);
    Set<String> docsSeen = new HashSet<>();
    for (JsonNode n : pages(NS + "/nodes")) {
      docsSeen.add(n.get("node").get("id").asText().split(":")[0]);
    }
    docsSeen.remove("warmup");
    assertThat(docsSeen).isEqualTo(docsAcked);
    Reply r = http.post(NS + "/recall", recall("afterdoc"));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
  }
}
