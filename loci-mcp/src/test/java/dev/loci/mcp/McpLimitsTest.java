package dev.loci.mcp;

import static dev.loci.mcp.McpHttpFixture.call;
import static dev.loci.mcp.McpHttpFixture.json;
import static dev.loci.mcp.McpHttpFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.recall.IngestLimits;
import dev.loci.server.RequestLimits;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP tools hold the server's request limits as its HTTP routes do: a {@code recall} query of
 * more distinct words than {@code recall_query_terms} is refused naming the limit, by the same
 * check, and one at the limit is answered; an {@code ingest} is held to the {@code ingest_*}
 * limits.
 */
class McpLimitsTest {
  private static final int TERMS = 8;

  @TempDir Path dir;

  @Test
  void ingest_documentPastIngestUnitsPerDocument_isALimitErrorNamingIt_writingNothing() {
    RequestLimits limits =
        new RequestLimits(
            64, 16 << 20, 10_000, 256, new IngestLimits(1 << 20, 10, 3, 1_000), 10_000, 1_024);
    try (McpHttpFixture http = new McpHttpFixture(dir, List.of(), limits)) {
      McpSyncClient c = http.client(Optional.empty(), Optional.of("limits"));
      McpSchema.CallToolResult atLimit = call(c, "ingest", ingest("a.md", 3));
      assertThat(atLimit.isError()).as(text(atLimit)).isFalse();
      long seq = http.server.loci().lastSeq();

      McpSchema.CallToolResult past = call(c, "ingest", ingest("b.md", 4));
      assertThat(past.isError()).isTrue();
      assertThat(text(past)).contains("ingest_units_per_document");
      assertThat(json(past).get("error").get("type").asText()).isEqualTo("limit-exceeded");
      assertThat(http.server.loci().lastSeq()).as("nothing written").isEqualTo(seq);
    }
  }

  /** An ingest of one markdown document of {@code units} numbered lines under one heading. */
  private static Map<String, Object> ingest(String path, int units) {
    StringBuilder text = new StringBuilder("# Sec\n\n");
    for (int i = 1; i <= units; i++) {
      text.append(i).append(". Item ").append(i).append(" ships.\n\n");
    }
    return Map.of(
        "pack",
        "markdown:contract",
        "documents",
        List.of(Map.of("path", path, "text", text.toString())));
  }

  private static String words(int n) {
    return IntStream.range(0, n).mapToObj(i -> "word" + i).collect(Collectors.joining(" "));
  }

  @Test
  void recall_queryPastRecallQueryTerms_isALimitErrorNamingIt_asOverHttp() throws Exception {
    try (McpHttpFixture http =
        new McpHttpFixture(dir, List.of(), RequestLimits.defaults().withRecallQueryTerms(TERMS))) {
      McpSyncClient c = http.client(Optional.empty(), Optional.of("limits"));
      McpSchema.CallToolResult atLimit =
          call(c, "recall", Map.of("query", words(TERMS) + " WORD0 word1"));
      assertThat(atLimit.isError()).as(text(atLimit)).isFalse();

      McpSchema.CallToolResult past = call(c, "recall", Map.of("query", words(TERMS + 1)));
      assertThat(past.isError()).isTrue();
      assertThat(text(past)).contains("recall_query_terms").contains("at most " + TERMS);
      JsonNode error = json(past).get("error");
      assertThat(error.get("type").asText()).isEqualTo("limit-exceeded");
      assertThat(error.get("field").asText()).isEqualTo("query");

      // the HTTP route refuses the same query with the same words
      HttpResponse<String> overHttp =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(http.base() + "/v1/ns/limits/recall"))
                      .header("Content-Type", "application/json")
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"query\":\"" + words(TERMS + 1) + "\"}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(overHttp.statusCode()).isEqualTo(422);
      assertThat(McpHttpFixture.MAPPER.readTree(overHttp.body()).get("detail").asText())
          .isEqualTo(text(past));
    }
  }
}
