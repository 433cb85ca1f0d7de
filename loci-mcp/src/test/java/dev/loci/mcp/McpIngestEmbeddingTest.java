package dev.loci.mcp;

import static dev.loci.mcp.McpHttpFixture.call;
import static dev.loci.mcp.McpHttpFixture.json;
import static dev.loci.mcp.McpHttpFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.GatedEmbeddingProvider;
import dev.loci.recall.RecallMemory;
import dev.loci.server.RequestLimits;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP {@code ingest} tool answers once the documents are durable and applied, as {@code POST
 * ingest} does, and the nodes' vectors follow on the server's own thread. The model is held at a
 * gate: a tool that embedded before answering would hang there.
 */
class McpIngestEmbeddingTest {
  @TempDir Path dir;

  @Test
  void ingestAnswersBeforeTheModelRuns_thenTheVectorsFollow_andRecallFindsTheNodes()
      throws Exception {
    GatedEmbeddingProvider model = new GatedEmbeddingProvider();
    StringBuilder text = new StringBuilder("# Sec\n\n");
    for (int i = 1; i <= 200; i++) {
      text.append(i).append(". Item ").append(i).append(" ships.\n\n");
    }
    try (McpHttpFixture http =
        new McpHttpFixture(dir, List.of(), RequestLimits.defaults(), model)) {
      McpSyncClient client = http.client(Optional.empty(), Optional.of("q"));
      McpSchema.CallToolResult ingested =
          call(
              client,
              "ingest",
              Map.of(
                  "pack",
                  "markdown:contract",
                  "documents",
                  List.of(Map.of("path", "d.md", "text", text.toString()))));
      assertThat(ingested.isError()).as(text(ingested)).isFalse();
      assertThat(json(ingested).get("reports").get(0).get("nodes").asInt()).isEqualTo(200);
      // answered while the model was asked for the nodes' vectors and is still held
      assertThat(model.waiting.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(model.texts.get()).isZero();

      model.gate.countDown();
      assertThat(model.awaitTexts(200)).isEqualTo(200);
      McpSchema.CallToolResult found =
          call(client, "recall", Map.of("query", "Item 117 ships", "mode", "hybrid", "k", 3));
      assertThat(text(found)).contains("Item 117 ships");
    } finally {
      model.gate.countDown();
    }
    // closing the server waited for the embedder's pass: every vector was kept
    try (Loci loci = Loci.builder().dataDir(dir).durability(Durability.none()).open()) {
      assertThat(RecallMemory.of(loci, model).embed(Namespace.of("q"), RecallMemory.Progress.NONE))
          .isZero();
    }
  }
}
