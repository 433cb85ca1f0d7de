package dev.loci.mcp;

import static dev.loci.govern.MemoryType.EPISODIC;
import static dev.loci.mcp.McpHttpFixture.call;
import static dev.loci.mcp.McpHttpFixture.credential;
import static dev.loci.mcp.McpHttpFixture.json;
import static dev.loci.mcp.McpHttpFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.server.Role;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP tools over governed memory that follow the HTTP API: {@code ingest} runs the extraction
 * wave {@code POST ingest} runs, and {@code propose_entity} takes {@code subject_ids} as {@code
 * POST entities} does; through a real server and the MCP SDK's client.
 */
class McpGovernanceTest {
  @TempDir Path dir;

  private static String spec(String constraint) {
    return "# Spec\n\n## Constraints\n\n- "
        + constraint
        + "\n\n## Parameters\n\nFlow rate = 40 l/min\n";
  }

  private static Map<String, Object> ingest(String path, String constraint) {
    return Map.of(
        "pack",
        "markdown:contract",
        "documents",
        List.of(Map.of("path", path, "text", spec(constraint))));
  }

  private static List<String> kinds(JsonNode candidates) {
    List<String> out = new ArrayList<>();
    candidates.forEach(c -> out.add(c.get("kind").asText()));
    return out;
  }

  @Test
  void ingest_runsTheWaveTheNamespaceAsksFor_asPostIngestDoes() throws Exception {
    try (McpHttpFixture http =
        new McpHttpFixture(
            dir,
            List.of(
                credential("writer-acme", Role.WRITER, "acme.*"),
                credential("reviewer-acme", Role.REVIEWER, "acme.*")))) {
      McpSyncClient writer = http.client(Optional.of("writer-acme"), Optional.of("acme.pump"));
      McpSchema.CallToolResult plain =
          call(writer, "ingest", ingest("a.md", "Noise must stay low"));
      assertThat(plain.isError()).as(text(plain)).isFalse();
      assertThat(json(plain).get("reports")).hasSize(1);
      assertThat(json(plain).get("extraction_waves")).isEmpty();

      HttpResponse<String> set =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(http.base() + "/v1/ns/acme.pump/governance"))
                      .header("Authorization", "Bearer reviewer-acme")
                      .header("Content-Type", "application/json")
                      .PUT(HttpRequest.BodyPublishers.ofString("{\"extract_on_ingest\":\"both\"}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(set.statusCode()).as(set.body()).isEqualTo(200);

      McpSchema.CallToolResult waved =
          call(writer, "ingest", ingest("b.md", "Noise must not exceed 60 dB"));
      assertThat(waved.isError()).as(text(waved)).isFalse();
      JsonNode waves = json(waved).get("extraction_waves");
      assertThat(waves).hasSize(1);
      JsonNode wave = waves.get(0);
      assertThat(wave.get("namespace").asText()).isEqualTo("acme.pump");
      assertThat(wave.get("chunks").asInt()).isPositive();
      assertThat(kinds(wave.get("candidates"))).contains("memory", "entity");
      assertThat(wave.get("candidates").findValuesAsText("source_chunk"))
          .isNotEmpty()
          .allMatch(c -> c.startsWith("b"));
      assertThat(dir.resolve("extraction-reports").resolve(wave.get("wave").asText()))
          .isDirectoryContaining("glob:**/report.json");
      McpSyncClient reviewer = http.client(Optional.of("reviewer-acme"), Optional.of("acme.pump"));
      assertThat(json(call(reviewer, "review_queue", Map.of())).get("candidates")).isNotEmpty();
      // another namespace without the setting: no wave
      McpSyncClient other = http.client(Optional.of("writer-acme"), Optional.of("acme.other"));
      assertThat(
              json(call(other, "ingest", ingest("c.md", "Seals must be replaced")))
                  .get("extraction_waves"))
          .isEmpty();
    }
  }

  @Test
  void proposeEntity_takesSubjectIds_andRefusesBadOnesNamingTheField() {
    try (McpHttpFixture http =
        new McpHttpFixture(dir, List.of(credential("writer-acme", Role.WRITER, "acme.*")))) {
      McpSyncClient writer = http.client(Optional.of("writer-acme"), Optional.of("acme.pump"));
      McpSchema.CallToolResult r =
          call(
              writer,
              "propose_entity",
              Map.of(
                  "type",
                  "decision",
                  "name",
                  "pump supplier",
                  "fields",
                  Map.of("value", "Acme"),
                  "subject_ids",
                  List.of("alice", "bob")));
      assertThat(r.isError()).as(text(r)).isFalse();
      JsonNode entity = json(r).get("entity");
      assertThat(entity.get("subject_ids").toString()).isEqualTo("[\"alice\",\"bob\"]");
      String id = entity.get("id").asText();
      assertThat(json(call(writer, "show_entity", Map.of("id", id))).get("subject_ids")).hasSize(2);

      for (Object bad : List.of(List.of("alice", "alice"), List.of(" "), List.of(7), "alice")) {
        McpSchema.CallToolResult refused =
            call(
                writer,
                "propose_entity",
                Map.of("type", "decision", "name", "pump colour", "subject_ids", bad));
        assertThat(refused.isError()).as("%s", bad).isTrue();
        assertThat(text(refused)).as("%s", bad).contains("subject_ids");
      }
      assertThat(json(call(writer, "list_entities", Map.of())).get("items"))
          .extracting(e -> e.get("name").asText())
          .containsExactly("pump supplier");
    }
  }

  @Test
  void recall_ranksASupersededMemoryAfterItsActiveSuccessor_asTheHttpApiDoes() {
    try (McpHttpFixture http = new McpHttpFixture(dir, List.of())) {
      dev.loci.govern.GovernedMemory gov = dev.loci.govern.GovernedMemory.of(http.server.loci());
      dev.loci.Namespace ns = dev.loci.Namespace.of("default");
      dev.loci.govern.Reviewer reviewer = new dev.loci.govern.Reviewer("dpo@acme");
      String lunch = "Team lunch at the tea house on Friday with the tea tasting";
      String old =
          gov.add(ns, dev.loci.govern.MemoryDraft.of(EPISODIC, lunch, "a"), reviewer).memory().id();
      String successor =
          gov.add(
                  ns,
                  dev.loci.govern.MemoryDraft.of(
                      EPISODIC, "Team lunch moved to the pizza place", "a"),
                  reviewer)
              .memory()
              .id();
      gov.supersede(ns, old, successor, reviewer);
      McpSyncClient client = http.client(Optional.empty(), Optional.empty());

      // by its words alone the superseded memory is the better match
      JsonNode items =
          json(call(
                  client,
                  "recall",
                  Map.of("query", "tea house tea tasting team lunch", "mode", "lexical", "k", 10)))
              .get("items");
      List<String> ids = new ArrayList<>();
      items.forEach(i -> ids.add(i.get("id").asText()));
      assertThat(ids).contains("memory:" + old, "memory:" + successor);
      assertThat(ids.indexOf("memory:" + old)).isGreaterThan(ids.indexOf("memory:" + successor));
    }
  }
}
