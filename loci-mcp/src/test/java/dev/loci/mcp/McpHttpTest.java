package dev.loci.mcp;

import static dev.loci.mcp.McpHttpFixture.call;
import static dev.loci.mcp.McpHttpFixture.credential;
import static dev.loci.mcp.McpHttpFixture.json;
import static dev.loci.mcp.McpHttpFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.server.Role;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP over streamable HTTP at {@code /mcp} of a real server, driven by the MCP Java SDK's client:
 * the tools, their errors, and the server's tokens, roles and namespace scopes bounding every call.
 */
class McpHttpTest {
  static final List<String> TOOLS =
      List.of(
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

  static final String RUNBOOK =
      """
      # Disk full

      1. Check free space on the volume.
      2. If the cleanup fails, page the storage on-call and escalate to step 3.
      3. Call the incident commander.
      """;

  @TempDir static Path dir;
  static McpHttpFixture http;

  @BeforeAll
  static void start() {
    http =
        new McpHttpFixture(
            dir,
            List.of(
                credential("writer-acme", Role.WRITER, "acme.*"),
                credential("reader-acme", Role.READER, "acme.*"),
                credential("reviewer-acme", Role.REVIEWER, "acme.*"),
                credential("legal-acme", Role.LEGAL, "acme.*"),
                credential("admin-all", Role.ADMIN, "*")));
  }

  @AfterAll
  static void stop() {
    http.close();
  }

  private static McpSyncClient as(String token, String ns) {
    return http.client(Optional.of(token), Optional.of(ns));
  }

  @Test
  void initialize_listsEveryToolWithSchemaTitleAndAnnotations() {
    McpSyncClient c = as("reader-acme", "acme.support");
    List<McpSchema.Tool> tools = c.listTools().tools();
    assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyElementsOf(TOOLS);
    Map<String, McpSchema.Tool> byName =
        tools.stream().collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
    for (McpSchema.Tool t : tools) {
      assertThat(t.title()).as(t.name()).isNotBlank();
      assertThat(t.description()).as(t.name()).hasSizeGreaterThan(30);
      assertThat(t.inputSchema().get("type")).isEqualTo("object");
      assertThat(t.annotations()).as(t.name()).isNotNull();
    }
    for (String read :
        List.of(
            "recall",
            "context",
            "history",
            "review_queue",
            "list_entities",
            "show_entity",
            "read_graph",
            "search_nodes",
            "open_nodes")) {
      assertThat(byName.get(read).annotations().readOnlyHint()).as(read).isTrue();
      assertThat(byName.get(read).annotations().destructiveHint()).as(read).isFalse();
    }
    for (String destructive :
        List.of("forget", "reject", "delete_entities", "delete_observations", "delete_relations")) {
      assertThat(byName.get(destructive).annotations().readOnlyHint()).as(destructive).isFalse();
      assertThat(byName.get(destructive).annotations().destructiveHint()).as(destructive).isTrue();
    }
    assertThat(byName.get("remember").annotations().destructiveHint()).isFalse();
    assertThat(byName.get("recall").inputSchema().get("required")).isEqualTo(List.of("query"));
    assertThat(byName.get("create_entities").outputSchema()).containsKey("properties");
    assertThat(c.listResourceTemplates().resourceTemplates())
        .extracting(McpSchema.ResourceTemplate::uriTemplate)
        .contains("loci://ns/{ns}/nodes/{id}");
  }

  @Test
  void governedMemory_rememberReviewPromoteContextHistoryForget() {
    McpSyncClient writer = as("writer-acme", "acme.gov");
    McpSyncClient reviewer = as("reviewer-acme", "acme.gov");

    McpSchema.CallToolResult r =
        call(
            writer,
            "remember",
            Map.of(
                "content", "Alice prefers tea over coffee", "type", "preference", "slot", "drink"));
    assertThat(r.isError()).as(text(r)).isFalse();
    JsonNode memory = json(r).get("memory");
    assertThat(memory.get("status").asText()).isEqualTo("candidate");
    String id = memory.get("id").asText();

    JsonNode queue = json(call(reviewer, "review_queue", Map.of()));
    assertThat(queue.get("candidates").findValuesAsText("id")).contains(id);

    r = call(reviewer, "promote", Map.of("id", id));
    assertThat(json(r).get("memory").get("status").asText()).as(text(r)).isEqualTo("active");

    r = call(writer, "context", Map.of("prompt", "what does Alice drink, tea or coffee?"));
    assertThat(r.isError()).as(text(r)).isFalse();
    assertThat(text(r)).contains("Alice prefers tea over coffee");
    assertThat(json(r).get("used_tokens").asInt()).isPositive();

    r = call(writer, "history", Map.of("id", id));
    assertThat(json(r).get("versions")).hasSize(2);
    assertThat(json(r).get("versions").get(0).get("status").asText()).isEqualTo("active");

    r = call(writer, "forget", Map.of("id", id, "reason", "outdated"));
    assertThat(r.isError()).isTrue();
    assertThat(json(r).get("error").get("type").asText()).isEqualTo("forbidden");

    r = call(reviewer, "forget", Map.of("id", id, "reason", "outdated"));
    assertThat(r.isError()).as(text(r)).isFalse();
    assertThat(json(r).get("memory").get("status").asText()).isEqualTo("invalid");

    String other =
        json(call(
                writer,
                "remember",
                Map.of("content", "Bob is on call this week", "type", "project")))
            .get("memory")
            .get("id")
            .asText();
    r = call(reviewer, "reject", Map.of("id", other, "reason", "not a fact"));
    assertThat(json(r).get("memory").get("status").asText()).as(text(r)).isEqualTo("invalid");
    assertThat(json(r).get("memory").get("reason").asText()).contains("not a fact");
  }

  @Test
  void governedEntities_proposeQueuedBesideMemories_promoteListShow_andBadInputNamesTheField() {
    McpSyncClient writer = as("writer-acme", "acme.ent");
    McpSyncClient reviewer = as("reviewer-acme", "acme.ent");
    McpSchema.CallToolResult r =
        call(
            writer,
            "propose_entity",
            Map.of(
                "type",
                "parameter",
                "name",
                "rated pressure",
                "fields",
                Map.of("value", "16 bar"),
                "sources",
                List.of(Map.of("kind", "document", "id", "spec.md"))));
    assertThat(r.isError()).as(text(r)).isFalse();
    JsonNode entity = json(r).get("entity");
    assertThat(entity.get("status").asText()).isEqualTo("candidate");
    String id = entity.get("id").asText();
    String memory =
        json(call(writer, "remember", Map.of("content", "Dana prefers metric units")))
            .get("memory")
            .get("id")
            .asText();

    JsonNode queue = json(call(reviewer, "review_queue", Map.of())).get("candidates");
    List<String> kinds = new java.util.ArrayList<>();
    queue.forEach(c -> kinds.add(c.get("kind").asText() + ":" + c.get("id").asText()));
    assertThat(kinds).containsExactlyInAnyOrder("entity:" + id, "memory:" + memory);

    r = call(writer, "promote", Map.of("id", id));
    assertThat(r.isError()).isTrue();
    assertThat(json(r).get("error").get("type").asText()).isEqualTo("forbidden");
    r = call(reviewer, "promote", Map.of("id", id));
    assertThat(json(r).get("entity").get("status").asText()).as(text(r)).isEqualTo("active");
    r = call(reviewer, "reject", Map.of("id", memory, "reason", "not about the pump"));
    assertThat(json(r).get("memory").get("status").asText()).as(text(r)).isEqualTo("invalid");

    JsonNode active =
        json(call(writer, "list_entities", Map.of("type", "parameter", "status", "active")));
    assertThat(active.get("items")).hasSize(1);
    assertThat(active.get("items").get(0).get("id").asText()).isEqualTo(id);
    JsonNode shown = json(call(writer, "show_entity", Map.of("id", id)));
    assertThat(shown.get("history")).hasSize(2);
    assertThat(shown.get("fields").get("value").get("value").asText()).isEqualTo("16 bar");

    r = call(writer, "propose_entity", Map.of("type", "widget", "name", "x"));
    assertThat(r.isError()).isTrue();
    assertThat(text(r)).contains("/type"); // the SDK checks the schema, naming the field
    r = call(writer, "propose_entity", Map.of("type", "fact", "name", "x", "fields", List.of()));
    assertThat(text(r)).contains("/fields");
    r = call(writer, "show_entity", Map.of("id", "nope"));
    assertThat(json(r).get("error").get("type").asText()).isEqualTo("not-found");
    assertThat(json(call(writer, "list_entities", Map.of())).get("items")).hasSize(1);
  }

  @Test
  void traces_rememberAsTrace_historyNeedsLegal_forgetRetires() {
    McpSyncClient writer = as("writer-acme", "acme.traces");
    McpSchema.CallToolResult r =
        call(
            writer,
            "remember",
            Map.of(
                "content", "user asked for a refund", "kind", "trace", "tags", List.of("billing")));
    assertThat(r.isError()).as(text(r)).isFalse();
    String uid = json(r).get("trace").get("uid").asText();
    assertThat(json(r).get("trace").get("content").asText()).isEqualTo("user asked for a refund");

    r = call(writer, "history", Map.of("id", uid, "kind", "trace"));
    assertThat(r.isError()).isTrue();
    assertThat(json(r).get("error").get("field").asText()).isEqualTo("id");
    assertThat(text(r)).contains("legal");

    r = call(as("legal-acme", "acme.traces"), "history", Map.of("id", uid, "kind", "trace"));
    assertThat(r.isError()).as(text(r)).isFalse();
    assertThat(json(r).get("versions")).hasSize(1);

    r = call(writer, "forget", Map.of("id", uid, "kind", "trace"));
    assertThat(json(r).get("trace").get("retired").asBoolean()).as(text(r)).isTrue();
  }

  @Test
  void ingestAndRecall_itemsCarryPathsAndEvidence_nodeResourceReads() {
    McpSyncClient writer = as("writer-acme", "acme.ops");
    McpSchema.CallToolResult r =
        call(
            writer,
            "ingest",
            Map.of(
                "pack",
                "markdown:runbook",
                "documents",
                List.of(Map.of("path", "disk.md", "text", RUNBOOK))));
    assertThat(r.isError()).as(text(r)).isFalse();
    assertThat(json(r).get("reports").get(0).get("nodes").asInt()).isPositive();

    r =
        call(
            writer,
            "recall",
            Map.of(
                "query", "who do I page when the cleanup fails", "mode", "weighted_graph", "k", 3));
    assertThat(r.isError()).as(text(r)).isFalse();
    JsonNode items = json(r).get("items");
    assertThat(items).isNotEmpty();
    JsonNode first = items.get(0);
    assertThat(first.get("path").asText()).startsWith("seed ");
    assertThat(first.get("evidence").get(0).asText()).startsWith("disk.md");
    assertThat(text(r)).startsWith("1. [").contains("path: seed ").contains("evidence: disk.md");

    String id = first.get("id").asText();
    McpSchema.ReadResourceResult res =
        writer.readResource(new McpSchema.ReadResourceRequest(NodeUris.node("acme.ops", id)));
    String body = ((McpSchema.TextResourceContents) res.contents().get(0)).text();
    assertThat(body).contains(id);

    r = call(writer, "history", Map.of("id", id, "kind", "node"));
    assertThat(json(r).get("error").get("type").asText()).isEqualTo("forbidden");
    r = call(as("legal-acme", "acme.ops"), "history", Map.of("id", id, "kind", "node"));
    assertThat(json(r).get("versions")).as(text(r)).hasSize(1);

    r = call(writer, "forget", Map.of("id", id, "kind", "node"));
    assertThat(json(r).get("outcome").asText()).as(text(r)).isEqualTo("removed");
    r = call(as("legal-acme", "acme.ops"), "history", Map.of("id", id, "kind", "node"));
    assertThat(json(r).get("versions")).as("the removal is a version; history is kept").hasSize(2);
  }

  @Test
  void badArguments_areToolErrorsNamingTheArgument_andTheSessionGoesOn() {
    McpSyncClient writer = as("writer-acme", "acme.bad");
    assertError(call(writer, "recall", Map.of()), "query");
    assertError(call(writer, "recall", Map.of("query", "x", "k", "five")), "k");
    assertError(call(writer, "recall", Map.of("query", "x", "mode", "telepathy")), "mode");
    assertError(call(writer, "recall", Map.of("query", "x", "as_of", "last week")), "as_of");
    assertThat(call(writer, "recall", Map.of("query", "x", "as_of", "2024-05-13")).isError())
        .isFalse();
    assertError(call(writer, "remember", Map.of("content", "x", "type", "gossip")), "type");
    assertError(call(writer, "remember", Map.of("content", "x", "colour", "red")), "colour");
    assertError(
        call(writer, "remember", Map.of("content", "x", "namespace", "Not A Namespace")),
        "namespace");
    assertError(
        call(
            writer,
            "create_entities",
            Map.of(
                "entities",
                List.of(Map.of("name", "", "entityType", "t", "observations", List.of())))),
        "entities[0].name");
    assertError(
        call(
            writer,
            "create_relations",
            Map.of(
                "relations",
                List.of(Map.of("from", "Ghost", "to", "Nobody", "relationType", "knows")))),
        "relations[0].from");
    assertError(
        call(writer, "ingest", Map.of("pack", "markdown:runbook", "documents", List.of())),
        "documents");
    assertThatThrownBy(() -> call(writer, "no_such_tool", Map.of()))
        .isInstanceOf(McpError.class)
        .hasMessageContaining("Unknown tool");
    // the session still serves
    assertThat(call(writer, "read_graph", Map.of()).isError()).isFalse();
  }

  private static void assertError(McpSchema.CallToolResult r, String field) {
    assertThat(r.isError()).as(text(r)).isTrue();
    assertThat(text(r)).contains(field);
  }

  @Test
  void aTokenScopedToAcme_cannotTouchOther() {
    McpSyncClient writer = as("writer-acme", "acme.x");
    for (String tool : List.of("remember", "recall", "read_graph", "create_entities", "context")) {
      Map<String, Object> args =
          switch (tool) {
            case "remember" -> Map.of("content", "secret", "namespace", "other");
            case "recall" -> Map.of("query", "secret", "namespace", "other");
            case "create_entities" -> Map.of("entities", List.of(), "namespace", "other");
            case "context" -> Map.of("prompt", "secret", "namespace", "other");
            default -> Map.of("namespace", "other");
          };
      McpSchema.CallToolResult r = call(writer, tool, args);
      assertThat(r.isError()).as(tool).isTrue();
      assertThat(text(r)).as(tool).contains("namespace").contains("not granted");
    }
    McpSchema.CallToolResult queue =
        call(as("reviewer-acme", "acme.x"), "review_queue", Map.of("namespace", "other"));
    assertThat(text(queue)).contains("namespace").contains("not granted");
    McpSyncClient elsewhere = as("writer-acme", "other");
    McpSchema.CallToolResult r = call(elsewhere, "remember", Map.of("content", "secret"));
    assertThat(r.isError()).isTrue();
    assertThat(json(r).get("error").get("type").asText()).isEqualTo("forbidden");
    assertThatThrownBy(
            () ->
                writer.readResource(new McpSchema.ReadResourceRequest(NodeUris.node("other", "x"))))
        .isInstanceOf(McpError.class)
        .hasMessageContaining("not granted");
    // the admin token of every namespace finds nothing written there
    assertThat(json(call(as("admin-all", "other"), "read_graph", Map.of())).get("entities"))
        .isEmpty();
    assertThat(json(call(as("admin-all", "other"), "review_queue", Map.of())).get("candidates"))
        .isEmpty();
  }

  @Test
  void aReaderToken_cannotRememberOrPromote_butRecalls() {
    McpSyncClient reader = as("reader-acme", "acme.r");
    Map<String, Map<String, Object>> calls =
        Map.of(
            "remember", Map.of("content", "x"),
            "promote", Map.of("id", "x"),
            "reject", Map.of("id", "x", "reason", "no"),
            "forget", Map.of("id", "x", "kind", "trace"),
            "create_entities", Map.of("entities", List.of()),
            "ingest",
                Map.of(
                    "pack",
                    "markdown:runbook",
                    "documents",
                    List.of(Map.of("path", "a.md", "text", RUNBOOK))),
            "review_queue", Map.of());
    calls.forEach(
        (tool, args) -> {
          McpSchema.CallToolResult r = call(reader, tool, args);
          assertThat(r.isError()).as(tool).isTrue();
          assertThat(text(r)).as(tool).contains(tool + " requires the");
        });
    McpSyncClient writer = as("writer-acme", "acme.r");
    assertThat(call(writer, "promote", Map.of("id", "x")).isError()).isTrue();
    assertThat(call(reader, "recall", Map.of("query", "anything")).isError()).isFalse();
  }

  @Test
  void http_withoutToken401_getAndDelete405_foreignOrigin403() throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    String init =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create(http.base() + "/mcp"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(init))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(401);
    r =
        client.send(
            HttpRequest.newBuilder(URI.create(http.base() + "/mcp"))
                .header("Authorization", "Bearer reader-acme")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(405);
    r =
        client.send(
            HttpRequest.newBuilder(URI.create(http.base() + "/mcp"))
                .header("Authorization", "Bearer reader-acme")
                .header("Content-Type", "application/json")
                .header("Origin", "https://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString(init))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(403);
    r =
        client.send(
            HttpRequest.newBuilder(URI.create(http.base() + "/mcp"))
                .header("Authorization", "Bearer reader-acme")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{not json"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("-32700");
    r =
        client.send(
            HttpRequest.newBuilder(URI.create(http.base() + "/mcp"))
                .header("Authorization", "Bearer reader-acme")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(init))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("\"name\":\"loci\"");
  }
}
