package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.loci.server.ServerFixture.Reply;
import dev.loci.server.ServerFixture.Seen;
import dev.loci.server.internal.OpsRoutes;
import dev.loci.server.spi.Route;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAPI document at {@code /v1/openapi.json} stays true: every route is documented and every
 * documented operation is served, and every response the test suite saw (this class's own walk,
 * plus whatever the other test classes recorded before it) has a documented status, content type
 * and, for JSON, a body that validates against the documented schema (networknt
 * json-schema-validator, JSON Schema 2020-12 as OpenAPI 3.1 uses).
 */
class OpenApiTest {
  private static final String DOC = "classpath:" + OpsRoutes.OPENAPI_RESOURCE.substring(1);

  @TempDir Path dir;

  private static JsonNode document() throws Exception {
    return ServerFixture.MAPPER.readTree(OpsRoutes.openApiDocument());
  }

  @Test
  void everyRouteDocumented_andEveryDocumentedOperationServed() throws Exception {
    JsonNode paths = document().get("paths");
    Set<String> served = new HashSet<>();
    try (ServerFixture http = new ServerFixture(dir)) {
      for (Route r : http.server.routes()) {
        String op = r.method().name().toLowerCase(Locale.ROOT);
        assertThat(paths.path(r.path()).has(op)).as("%s %s is documented", op, r.path()).isTrue();
        served.add(op + " " + r.path());
      }
      assertThat(http.get("/v1/openapi.json").json()).isEqualTo(document());
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> p = it.next();
      for (Iterator<String> ops = p.getValue().fieldNames(); ops.hasNext(); ) {
        String op = ops.next();
        if (!op.equals("parameters")) {
          assertThat(served)
              .as("documented %s %s is served", op, p.getKey())
              .contains(op + " " + p.getKey());
        }
      }
    }
  }

  @Test
  void everyResponseSeen_matchesTheDocument() throws Exception {
    walkEveryRoute();
    JsonNode doc = document();
    SchemaRegistry factory = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    List<String> problems = new ArrayList<>();
    int validated = 0;
    for (Seen s : ServerFixture.SEEN) {
      Optional<String> template = template(doc.get("paths"), s.path());
      if (template.isEmpty()) {
        continue; // a test-only route or a path that matches no route (404 by design)
      }
      JsonNode op = doc.get("paths").get(template.get()).get(s.method().toLowerCase(Locale.ROOT));
      if (op == null) {
        continue; // 405 for a method the path does not take
      }
      JsonNode response = op.path("responses").get(Integer.toString(s.status()));
      String where = s.method() + " " + template.get() + " -> " + s.status();
      if (response == null) {
        problems.add(where + ": status not documented");
        continue;
      }
      if (response.has("$ref")) {
        response = resolve(doc, response.get("$ref").asText());
      }
      String media = s.contentType().split(";")[0].strip();
      if (media.isEmpty() && s.body().isEmpty() && !response.has("content")) {
        validated++; // documented as bodiless, and it is (304)
        continue;
      }
      JsonNode content = response.path("content").get(media);
      if (content == null) {
        problems.add(where + ": content type " + media + " not documented");
        continue;
      }
      if (!media.endsWith("json") || media.endsWith("ndjson")) {
        continue; // not one JSON document (JSON Lines: each line is checked where it is made)
      }
      JsonNode schemaNode = content.get("schema");
      Schema schema =
          schemaNode.has("$ref")
              ? factory.getSchema(SchemaLocation.of(DOC + schemaNode.get("$ref").asText()))
              : factory.getSchema(schemaNode);
      List<com.networknt.schema.Error> errors =
          schema.validate(ServerFixture.MAPPER.readTree(s.body()));
      if (!errors.isEmpty()) {
        problems.add(where + ": " + errors + " in " + s.body());
      }
      validated++;
    }
    assertThat(problems).isEmpty();
    assertThat(validated).isGreaterThanOrEqualTo(15);
  }

  /** Calls every route with successes and the usual failures, so this class sees them all. */
  private void walkEveryRoute() {
    try (ServerFixture http = new ServerFixture(dir.resolve("walk"))) {
      String t = "/v1/ns/acme/traces";
      Reply added = http.post(t, "{\"content\":{\"a\":1},\"tags\":[\"x\"]}");
      String uid = added.json().get("uid").asText();
      http.post(t, "{\"content\":1,\"uid\":\"fixed\"}");
      http.post(t, "{\"content\":1,\"uid\":\"fixed\"}"); // 409
      http.post(t, "{bad"); // 400
      http.send("PUT", t + "/k", Optional.empty(), Optional.of("{\"content\":1}"));
      http.send("PUT", t + "/k", Optional.empty(), Optional.of("{\"content\":1}"));
      http.send("PATCH", t + "/" + uid, Optional.empty(), Optional.of("{\"content\":2}"));
      http.send("PATCH", t + "/ghost", Optional.empty(), Optional.of("{\"content\":2}"));
      http.send(
          http.request(t + "/" + uid, Optional.empty())
              .header("Content-Type", "application/json")
              .header("If-Match", "\"stale\"")
              .method("PATCH", java.net.http.HttpRequest.BodyPublishers.ofString("{\"content\":3}"))
              .build()); // 412
      Reply revised = http.post(t + "/" + uid + "/revisions", "{\"content\":3}");
      http.post(t + "/" + uid + "/retire", "{}");
      http.get(t + "/" + uid);
      http.get(t + "/" + revised.json().get("uid").asText() + "/history");
      http.get(t + "?limit=1");
      http.get(t + "?limit=1&include_retired=true&subtree=true");
      http.get("/v1/ns/acme/trace-count?subtree=true");
      http.get("/health");
      http.get("/metrics");
      http.get("/v1/openapi.json");
    }
    walkPathwayRoutes();
    walkRecallRoutes();
  }

  /** The recall routes: successes, a 304, and the 400, 404, 412 and 415 they document. */
  private void walkRecallRoutes() {
    try (ServerFixture http = new ServerFixture(dir.resolve("walk-recall"))) {
      String ns = "/v1/ns/acme";
      BiFunction<String, String, Reply> put =
          (path, json) -> http.send("PUT", ns + path, Optional.empty(), Optional.of(json));
      Function<String, Reply> delete =
          path -> http.send("DELETE", ns + path, Optional.empty(), Optional.empty());
      http.post(
          ns + "/ingest",
          "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"terms.md\",\"text\":"
              + "\"# Payment\\n\\n1. The buyer pays within 30 days.\\n\\n2. Unless clause 1 fails,"
              + " a penalty applies.\\n\"}]}");
      http.post(ns + "/ingest", "{\"pack\":\"poem\",\"documents\":[]}"); // 400
      put.apply(
          "/nodes/n1",
          "{\"type\":\"note\",\"content\":\"alpha\",\"attributes\":{\"k\":\"v\"},\"source_ref\":"
              + "{\"path\":\"a.md\",\"section\":\"S\",\"lines\":{\"start\":1,\"end\":2},"
              + "\"chars\":{\"start\":0,\"end\":5}}}");
      put.apply("/nodes/n2", "{\"type\":\"note\",\"content\":\"beta\"}");
      put.apply("/nodes/n2", "{\"type\":\"note\"}"); // 400
      http.send(
          http.request(ns + "/nodes/n2", Optional.empty())
              .header("Content-Type", "application/json")
              .header("If-Match", "\"9\"")
              .PUT(
                  java.net.http.HttpRequest.BodyPublishers.ofString(
                      "{\"type\":\"note\",\"content\":\"x\"}"))
              .build()); // 412
      http.send(
          http.request(ns + "/nodes/n2", Optional.empty())
              .header("If-None-Match", "\"1\"")
              .GET()
              .build()); // 304
      http.send("POST", ns + "/recall", Optional.empty(), Optional.empty()); // 415
      http.get(ns + "/nodes?limit=1");
      http.get(ns + "/nodes?cursor=bad"); // 400
      http.get(ns + "/nodes/n1?include_history=true");
      http.get(ns + "/nodes/ghost"); // 404
      String edge =
          "{\"from\":\"n1\",\"edge_type\":\"related\",\"to\":\"n2\",\"bidirectional\":true}";
      put.apply("/edges", edge);
      put.apply("/edges", edge.replace("n2", "ghost")); // 400
      String key = "/edges?from=n1&edge_type=related&to=n2";
      http.get(ns + key + "&include_history=true");
      http.get(ns + "/edges?from=n1&edge_type=related&to=ghost"); // 404
      http.get(ns + "/nodes/n1/edges");
      http.get(ns + "/nodes/ghost/edges"); // 404
      http.get(ns + "/graph-stats");
      for (String mode : List.of("hybrid", "weighted_graph", "activation_spreading", "ppr")) {
        http.post(ns + "/recall", "{\"query\":\"buyer pays penalty\",\"mode\":\"" + mode + "\"}");
      }
      http.post(ns + "/recall", "{\"query\":\"x\",\"k\":0}"); // 400
      delete.apply(key);
      delete.apply(key); // 404
      delete.apply("/nodes/n2");
      delete.apply("/nodes/n2"); // 404
    }
  }

  /**
   * The pathway routes, with every nested type of a trace, a legacy import, and the legal routes
   * with a legal token (and refused without one).
   */
  private void walkPathwayRoutes() {
    Path config = dir.resolve("walk-pathways.toml");
    Map<Role, String> tokens = new EnumMap<>(Role.class);
    for (Role r : List.of(Role.ADMIN, Role.LEGAL)) {
      tokens.put(
          r, ConfigFile.addToken(config, r, List.of(Grant.of("*")), Optional.empty()).token());
    }
    try (ServerFixture http =
        new ServerFixture(dir.resolve("walk-pathways"), ConfigFile.load(config))) {
      BiFunction<String, String, Reply> admin =
          (path, json) ->
              http.send(
                  json == null ? "GET" : "POST",
                  path,
                  Optional.of(tokens.get(Role.ADMIN)),
                  Optional.ofNullable(json));
      Function<String, Reply> legal =
          path -> http.send("GET", path, Optional.of(tokens.get(Role.LEGAL)), Optional.empty());
      String p = "/v1/ns/acme/pathway-traces";
      Reply inserted =
          admin.apply(
              p,
              "{\"task_class\":\"scrum_review\",\"file_path\":\"crates/queryd/src/service.rs\","
                  + "\"signal_class\":\"LOOPING\",\"ladder_attempts\":[{\"rung\":1,\"model\":\"m\","
                  + "\"latency_ms\":12,\"accepted\":false,\"reject_reason\":\"r\"}],"
                  + "\"kb_chunks\":[{\"source_doc\":\"d\",\"chunk_id\":\"c\",\"cosine_score\":0.5,"
                  + "\"rank\":0}],\"observer_signals\":[{\"class\":\"LOOPING\",\"priors\":2,"
                  + "\"prior_iter_outcomes\":[\"fail\"]}],\"bridge_hits\":[{\"library\":\"l\","
                  + "\"version\":\"1\",\"result_summary\":\"s\"}],\"sub_pipeline_calls\":[{\"any\":1}],"
                  + "\"audit_consensus\":{\"pass\":true,\"models\":[\"a\"],\"disagreements\":[]},"
                  + "\"reducer_summary\":\"mail a@b.example\",\"final_verdict\":\"accepted\","
                  + "\"semantic_flags\":[\"OffByOne\"],\"type_hints_used\":[{\"source\":\"s\","
                  + "\"symbol\":\"x\",\"type_repr\":\"u32\"}],\"bug_fingerprints\":[{\"flag\":"
                  + "\"DeadCode\",\"pattern_key\":\"k\",\"example\":\"e\",\"occurrences\":2}],"
                  + "\"subject_ids\":[\"cand-1\"],\"x_extra\":true}");
      JsonNode trace = inserted.json().get("trace");
      String uid = trace.get("trace_uid").asText();
      admin.apply(p, "{\"file_path\":\"a\"}"); // 400
      admin.apply(p + "/" + uid, null);
      admin.apply(p + "/ghost", null); // 404
      admin.apply(p + "/" + uid + "/revisions", "{\"final_verdict\":\"rejected\"}");
      admin.apply(p + "/" + uid + "/revisions", "{\"final_verdict\":\"again\"}"); // 409
      admin.apply(p + "/" + uid + "/replays", "{\"succeeded\":false}");
      admin.apply(p + "/" + uid + "/replays", "{\"succeeded\":2}"); // 400
      legal.apply(p + "/" + uid + "/versions");
      admin.apply(p + "/" + uid + "/versions", null); // 403
      admin.apply(
          "/v1/ns/acme/pathway-hotswap?task_class=scrum_review&file_path=crates/queryd"
              + "&signal_class=LOOPING&k=3&subtree=true",
          null);
      admin.apply("/v1/ns/acme/pathway-hotswap?task_class=scrum_review", null); // 400
      admin.apply(
          "/v1/ns/acme/pathway-similar?subtree=true",
          "{\"pathway_vec\":" + trace.get("pathway_vec") + ",\"include_history\":true}");
      admin.apply(
          "/v1/ns/acme/pathways/" + trace.get("pathway_id").asText() + "?include_history=true",
          null);
      admin.apply("/v1/ns/acme/pathway-stats?subtree=true", null);
      String state = legal.apply("/v1/ns/acme/pathway-state").body();
      String legacy =
          "{\"pathways\":{\""
              + "b".repeat(64)
              + "\":[{\"task_class\":\"t\",\"file_path\":\"a/b\","
              + "\"created_at\":\"2026-04-29T05:43:00Z\"}]},\"last_updated_at\":\"2026-04-29T05:43:00Z\"}";
      for (String body : List.of(state, legacy, "{}")) {
        http.send(
            "PUT",
            "/v1/ns/copy/pathway-state",
            Optional.of(tokens.get(Role.ADMIN)),
            Optional.of(body));
      }
      legal.apply("/v1/ns/copy/pathway-state");
      admin.apply("/v1/ns/acme/pathway-redaction", null);
      http.send(
          "PUT",
          "/v1/ns/acme/pathway-redaction",
          Optional.of(tokens.get(Role.ADMIN)),
          Optional.of(
              "{\"rules\":[{\"name\":\"email\"},{\"name\":\"badge\",\"regex\":\"B-\\\\d+\"}]}"));
    }
  }

  private static Optional<String> template(JsonNode paths, String path) {
    for (Iterator<String> it = paths.fieldNames(); it.hasNext(); ) {
      String template = it.next();
      String regex = Pattern.quote(template).replaceAll("\\{[a-z_]+\\}", "\\\\E[^/]+\\\\Q");
      if (path.matches(regex)) {
        return Optional.of(template);
      }
    }
    return Optional.empty();
  }

  private static JsonNode resolve(JsonNode doc, String ref) {
    return doc.at(ref.substring(1));
  }
}
