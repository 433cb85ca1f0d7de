package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.GatedEmbeddingProvider;
import dev.loci.recall.RecallMemory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
    GatedEmbeddingProvider model = new GatedEmbeddingProvider();
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
      assertThat(model.awaitTexts(300)).isEqualTo(300);

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
    // closing the server waited for the embedder's pass: every vector was kept
    try (Loci loci = Loci.builder().dataDir(dir).durability(Durability.none()).open()) {
      assertThat(RecallMemory.of(loci, model).embed(Namespace.of("q"), RecallMemory.Progress.NONE))
          .isZero();
    }
  }
}
