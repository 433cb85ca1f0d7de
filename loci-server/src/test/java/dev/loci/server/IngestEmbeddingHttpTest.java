package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.spi.EmbeddingProvider;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST ingest} answers once the document is durable and applied, without waiting for the
 * model: the new nodes' vectors are computed after the response, on the server's own thread.
 * Through real HTTP, with the hashing model held at a gate so that "after" can be observed (a route
 * that embedded before answering would hang at the gate).
 */
class IngestEmbeddingHttpTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  /** The hashing model, whose calls wait at a gate once it is closed. */
  private static final class GatedModel implements EmbeddingProvider {
    private final EmbeddingProvider model = HashingEmbeddingProvider.create();
    final AtomicInteger texts = new AtomicInteger();
    final CountDownLatch waiting = new CountDownLatch(1);
    volatile CountDownLatch gate = new CountDownLatch(0);

    @Override
    public String modelId() {
      return model.modelId();
    }

    @Override
    public int dimension() {
      return model.dimension();
    }

    @Override
    public List<float[]> embedDocuments(List<String> batch) {
      if (batch.size() > 1) { // a query is one text; an ingest's nodes come in batches
        waiting.countDown();
        try {
          gate.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      texts.addAndGet(batch.size());
      return model.embedDocuments(batch);
    }
  }

  private static HttpResponse<String> post(HttpClient http, int port, String path, String body)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void ingestAnswersBeforeTheModelRuns_recallMeanwhileFindsEveryNode_vectorsFollow()
      throws Exception {
    GatedModel model = new GatedModel();
    model.gate = new CountDownLatch(1);
    StringBuilder text = new StringBuilder("# Sec\\n\\n");
    for (int i = 1; i <= 300; i++) {
      text.append(i).append(". Item ").append(i).append(" ships.\\n\\n");
    }
    String doc =
        "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"d.md\",\"text\":\""
            + text
            + "\"}]}";
    LociServer server =
        LociServer.builder(Loci.builder().dataDir(dir).durability(Durability.none()))
            .config(ServerConfig.defaults().withHost("127.0.0.1").withPort(0))
            .embeddings(model)
            .retentionSweepEvery(Duration.ZERO)
            .start();
    try {
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> ingested = post(http, server.port(), "/v1/ns/q/ingest", doc);
      assertThat(ingested.statusCode()).as(ingested.body()).isEqualTo(200);
      assertThat(JSON.readTree(ingested.body()).get("items").get(0).get("nodes").asInt())
          .isEqualTo(300);
      // the model was asked for the nodes' vectors only after the answer, and is still held
      assertThat(model.waiting.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(model.texts.get()).isZero();

      // then the vectors follow, with no recall asking for them
      model.gate.countDown();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (model.texts.get() < 300 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(model.texts.get()).isEqualTo(300);
      RecallMemory recall = RecallMemory.of(server.loci(), model);
      assertThat(recall.embed(Namespace.of("q"), RecallMemory.Progress.NONE)).isZero();

      JsonNode found =
          JSON.readTree(
              post(
                      http,
                      server.port(),
                      "/v1/ns/q/recall",
                      "{\"query\":\"Item 217 ships\",\"mode\":\"hybrid\",\"k\":3}")
                  .body());
      assertThat(found.get("items").get(0).path("node").path("content").asText())
          .contains("Item 217 ships");
    } finally {
      model.gate.countDown();
      server.close();
    }
  }
}
