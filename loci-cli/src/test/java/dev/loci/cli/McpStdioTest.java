package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loci mcp} as an MCP client starts it: a child JVM speaking JSON-RPC on its stdin and
 * stdout, driven by the MCP Java SDK's stdio client. Every tool is called once over the pipe (the
 * HTTP tests in loci-mcp cover each tool's behaviour in depth); a bad argument is a tool error
 * naming it and the session goes on, and the child's logs never reach the JSON-RPC stream.
 */
class McpStdioTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir static Path dir;
  private static McpSyncClient client;

  @BeforeAll
  static void start() {
    ServerParameters params =
        ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
            .args(
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "mcp",
                "--data",
                dir.resolve("data").toString(),
                "--ns",
                "acme.app",
                "--embedding",
                "hashing")
            .build();
    client =
        McpClient.sync(new StdioClientTransport(params, new JacksonMcpJsonMapper(MAPPER)))
            .requestTimeout(Duration.ofSeconds(60))
            .build();
    client.initialize();
  }

  @AfterAll
  static void stop() {
    client.closeGracefully();
  }

  private static McpSchema.CallToolResult call(String tool, Map<String, Object> args) {
    return client.callTool(new McpSchema.CallToolRequest(tool, args));
  }

  private static JsonNode ok(McpSchema.CallToolResult r) {
    String text = ((McpSchema.TextContent) r.content().get(0)).text();
    assertThat(r.isError()).as(text).isNotEqualTo(Boolean.TRUE);
    return MAPPER.valueToTree(r.structuredContent());
  }

  @Test
  void listTools_hasLocisToolsAndTheReferenceServersNine() {
    assertThat(client.listTools().tools())
        .extracting(McpSchema.Tool::name)
        .containsExactlyInAnyOrder(
            "remember",
            "recall",
            "ingest",
            "context",
            "history",
            "forget",
            "review_queue",
            "promote",
            "reject",
            "propose_entity",
            "list_entities",
            "show_entity",
            "create_entities",
            "create_relations",
            "add_observations",
            "delete_entities",
            "delete_observations",
            "delete_relations",
            "read_graph",
            "search_nodes",
            "open_nodes");
  }

  @Test
  void locisTools_overThePipe() {
    String id =
        ok(call("remember", Map.of("content", "Alice prefers tea", "type", "preference")))
            .at("/memory/id")
            .asText();
    assertThat(ok(call("review_queue", Map.of())).get("candidates").findValuesAsText("id"))
        .contains(id);
    assertThat(ok(call("promote", Map.of("id", id))).at("/memory/status").asText())
        .isEqualTo("active");
    assertThat(ok(call("context", Map.of("prompt", "what does Alice drink?"))).toString())
        .contains("Alice prefers tea");
    assertThat(ok(call("history", Map.of("id", id))).get("versions")).hasSize(2);
    String other =
        ok(call("remember", Map.of("content", "Bob is on call"))).at("/memory/id").asText();
    assertThat(ok(call("reject", Map.of("id", other, "reason", "guess"))).at("/memory/status"))
        .hasToString("\"invalid\"");
    assertThat(ok(call("forget", Map.of("id", id, "reason", "outdated"))).at("/memory/status"))
        .hasToString("\"invalid\"");
    String entity =
        ok(call("propose_entity", Map.of("type", "decision", "name", "use GF-PTFE pads")))
            .at("/entity/id")
            .asText();
    assertThat(ok(call("review_queue", Map.of())).get("candidates").findValuesAsText("kind"))
        .contains("entity");
    assertThat(ok(call("promote", Map.of("id", entity))).at("/entity/status").asText())
        .isEqualTo("active");
    assertThat(ok(call("list_entities", Map.of("status", "active"))).get("items"))
        .extracting(n -> n.get("id").asText())
        .containsExactly(entity);
    assertThat(ok(call("show_entity", Map.of("id", entity))).get("history")).hasSize(2);

    ok(
        call(
            "ingest",
            Map.of(
                "pack",
                "markdown:runbook",
                "documents",
                List.of(
                    Map.of(
                        "path",
                        "disk.md",
                        "text",
                        "# Disk full\n\n1. Page the storage on-call when cleanup fails.\n")))));
    JsonNode items = ok(call("recall", Map.of("query", "who do I page", "k", 3))).get("items");
    assertThat(items).isNotEmpty();
    assertThat(items.get(0).get("path").asText()).startsWith("seed ");
    assertThat(items.get(0).get("evidence").get(0).asText()).startsWith("disk.md");
  }

  @Test
  void referenceTools_overThePipe() {
    ok(
        call(
            "create_entities",
            Map.of(
                "entities",
                List.of(
                    Map.of("name", "Ada", "entityType", "person", "observations", List.of("math")),
                    Map.of("name", "Loom", "entityType", "thing", "observations", List.of())))));
    ok(
        call(
            "create_relations",
            Map.of(
                "relations",
                List.of(Map.of("from", "Ada", "to", "Loom", "relationType", "uses")))));
    ok(
        call(
            "add_observations",
            Map.of(
                "observations",
                List.of(Map.of("entityName", "Ada", "contents", List.of("poetry"))))));
    assertThat(ok(call("search_nodes", Map.of("query", "poetry"))).get("entities"))
        .extracting(e -> e.get("name").asText())
        .containsExactly("Ada");
    assertThat(ok(call("open_nodes", Map.of("names", List.of("Ada", "Loom")))).get("relations"))
        .hasSize(1);
    ok(
        call(
            "delete_observations",
            Map.of(
                "deletions",
                List.of(Map.of("entityName", "Ada", "observations", List.of("math"))))));
    ok(
        call(
            "delete_relations",
            Map.of(
                "relations",
                List.of(Map.of("from", "Ada", "to", "Loom", "relationType", "uses")))));
    ok(call("delete_entities", Map.of("entityNames", List.of("Loom"))));
    JsonNode graph = ok(call("read_graph", Map.of()));
    assertThat(graph.get("entities")).extracting(e -> e.get("name").asText()).contains("Ada");
    assertThat(graph.get("entities"))
        .extracting(e -> e.get("name").asText())
        .doesNotContain("Loom");
    assertThat(graph.get("relations")).isEmpty();
  }

  @Test
  void badArgument_isAToolErrorNamingIt_andTheSessionGoesOn() {
    McpSchema.CallToolResult r = call("recall", Map.of("query", "x", "mode", "telepathy"));
    String text = ((McpSchema.TextContent) r.content().get(0)).text();
    assertThat(r.isError()).as(text).isTrue();
    assertThat(text).contains("/mode").contains("hybrid");
    assertThat(ok(call("read_graph", Map.of())).has("entities")).isTrue();
  }
}
