package dev.loci.mcp;

import static dev.loci.mcp.McpHttpFixture.MAPPER;
import static dev.loci.mcp.McpHttpFixture.call;
import static dev.loci.mcp.McpHttpFixture.json;
import static dev.loci.mcp.McpHttpFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Namespace;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drop-in compatibility with the reference MCP memory server: a recorded session of its nine tools
 * ({@code reference-session.json}) replayed against Loci over MCP gives the results that server
 * gives, and what was written lives in Loci as versioned nodes and edges that recall finds; its
 * {@code memory.jsonl} imports into the same shape.
 */
class ReferenceCompatibilityTest {
  @TempDir Path dir;

  @Test
  void recordedSession_ofTheNineTools_givesTheReferenceResults() throws Exception {
    JsonNode session;
    try (InputStream in = getClass().getResourceAsStream("reference-session.json")) {
      session = MAPPER.readTree(in);
    }
    try (McpHttpFixture http = new McpHttpFixture(dir, List.of())) {
      McpSyncClient client = http.client(Optional.empty(), Optional.of("team.memory"));
      assertThat(client.listTools().tools())
          .extracting(McpSchema.Tool::name)
          .containsSubsequence(
              "create_entities",
              "create_relations",
              "add_observations",
              "delete_entities",
              "delete_observations",
              "delete_relations",
              "read_graph",
              "search_nodes",
              "open_nodes");
      int step = 0;
      for (JsonNode s : session.get("steps")) {
        step++;
        String tool = s.get("tool").asText();
        @SuppressWarnings("unchecked")
        Map<String, Object> args = MAPPER.convertValue(s.get("arguments"), Map.class);
        McpSchema.CallToolResult r = call(client, tool, args);
        String what = "step " + step + " " + tool + ": " + text(r);
        assertThat(r.isError()).as(what).isEqualTo(s.get("isError").asBoolean());
        if (s.has("structuredContent")) {
          assertThat(json(r)).as(what).isEqualTo(s.get("structuredContent"));
          if (!s.has("text") && tool.matches("create_.*|add_.*")) {
            JsonNode listed = s.get("structuredContent").elements().next();
            assertThat(MAPPER.readTree(text(r))).as(what).isEqualTo(listed);
          } else if (!s.has("text")) {
            assertThat(MAPPER.readTree(text(r))).as(what).isEqualTo(s.get("structuredContent"));
          }
        }
        if (s.has("text")) {
          assertThat(text(r)).as(what).isEqualTo(s.get("text").asText());
        }
      }

      // what the session wrote is Loci's: versioned nodes and edges that recall finds
      Namespace ns = Namespace.of("team.memory");
      RecallMemory recall = RecallMemory.of(http.server.loci());
      assertThat(recall.nodeVersion(ns, "entity:Alice").version())
          .as("created, observation added, observation deleted")
          .isEqualTo(3);
      assertThat(recall.nodeVersion(ns, "entity:Acme").removed()).isTrue();
      RecallResult found =
          recall.recall(ns, RecallQuery.builder("French", RecallMode.LEXICAL).k(3).build());
      assertThat(found.items()).extracting(i -> i.node().id()).containsExactly("entity:Alice");
      assertThat(found.items().get(0).path().steps()).isNotEmpty();
    }
  }

  @Test
  void memoryJsonl_importsAsTheEntitiesAndRelationsTheToolsRead() throws Exception {
    Path file = dir.resolve("memory.jsonl");
    Files.writeString(
        file,
        String.join(
            "\n",
            "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"likes tea\"]}",
            "{\"type\":\"entity\",\"name\":\"Acme Corp\",\"entityType\":\"organization\",\"observations\":[]}",
            "{\"type\":\"relation\",\"from\":\"Alice\",\"to\":\"Acme Corp\",\"relationType\":\"works at\"}",
            "{\"type\":\"relation\",\"from\":\"Alice\",\"to\":\"Ghost\",\"relationType\":\"knows\"}",
            "not json",
            "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[]}"),
        StandardCharsets.UTF_8);
    try (McpHttpFixture http = new McpHttpFixture(dir.resolve("data"), List.of())) {
      Namespace ns = Namespace.of("imported");
      RecallMemory recall = RecallMemory.of(http.server.loci());
      var report =
          recall.ingest(
              ns,
              dev.loci.recall.DomainPacks.named(LociMcpServer.MEMORY_PACK),
              file,
              RecallMemory.Progress.NONE);
      assertThat(report.nodes()).isEqualTo(2);
      assertThat(report.edges()).isEqualTo(1);
      assertThat(report.skipped())
          .extracting(s -> s.where() + ": " + s.reason())
          .hasSize(3)
          .anyMatch(s -> s.contains("line 4") && s.contains("Ghost"))
          .anyMatch(s -> s.contains("line 5") && s.contains("not JSON"))
          .anyMatch(s -> s.contains("line 6") && s.contains("repeats"));
      MemoryNode alice = recall.node(ns, "entity:Alice").orElseThrow();
      assertThat(alice.sourceRef().orElseThrow().describe()).isEqualTo(file + ", line 1");

      McpSyncClient client = http.client(Optional.empty(), Optional.of("imported"));
      JsonNode graph = json(call(client, "read_graph", Map.of()));
      assertThat(graph)
          .isEqualTo(
              MAPPER.readTree(
                  """
                  {"entities": [
                     {"name": "Alice", "entityType": "person", "observations": ["likes tea"]},
                     {"name": "Acme Corp", "entityType": "organization", "observations": []}],
                   "relations": [{"from": "Alice", "to": "Acme Corp", "relationType": "works at"}]}
                  """));
      McpSchema.CallToolResult added =
          call(
              client,
              "add_observations",
              Map.of(
                  "observations",
                  List.of(Map.of("entityName", "Acme Corp", "contents", List.of("sells anvils")))));
      assertThat(added.isError()).as(text(added)).isFalse();
      assertThat(
              recall
                  .ingest(
                      ns,
                      dev.loci.recall.DomainPacks.named(LociMcpServer.MEMORY_PACK),
                      file,
                      RecallMemory.Progress.NONE)
                  .written())
          .as("Alice and the relation are unchanged; Acme Corp is put back as the file says")
          .isEqualTo(1);
    }
  }
}
