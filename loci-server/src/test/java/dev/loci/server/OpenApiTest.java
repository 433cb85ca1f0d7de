package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.loci.server.ServerFixture.Reply;
import dev.loci.server.ServerFixture.Seen;
import dev.loci.server.internal.OpsRoutes;
import dev.loci.server.spi.Route;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
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
      JsonNode content = response.path("content").get(media);
      if (content == null) {
        problems.add(where + ": content type " + media + " not documented");
        continue;
      }
      if (!media.endsWith("json")) {
        continue;
      }
      JsonNode schemaNode = content.get("schema");
      JsonSchema schema =
          schemaNode.has("$ref")
              ? factory.getSchema(SchemaLocation.of(DOC + schemaNode.get("$ref").asText()))
              : factory.getSchema(schemaNode);
      Set<ValidationMessage> errors = schema.validate(ServerFixture.MAPPER.readTree(s.body()));
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
