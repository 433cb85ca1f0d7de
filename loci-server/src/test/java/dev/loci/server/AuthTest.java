package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.server.ServerFixture.Reply;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.RouteSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials over every route: each route against no token, an unknown token, a token of too low a
 * role, a token of another namespace, and the right token; namespace isolation of search.
 */
class AuthTest {
  private static final String NS = "acme.team";

  @TempDir Path dir;
  private ServerFixture http;
  private final Map<Role, String> acme = new EnumMap<>(Role.class);
  private String globexWriter;
  private String globexAdmin;
  private String exactReader;
  private String uid;

  @BeforeEach
  void start() {
    Path config = dir.resolve("conf").resolve("loci.toml");
    for (Role r : Role.values()) {
      acme.put(r, token(config, r, "acme.*"));
    }
    globexWriter = token(config, Role.WRITER, "globex");
    globexAdmin = token(config, Role.LEGAL, "globex.*");
    exactReader = token(config, Role.READER, NS);
    RouteSet legal =
        () ->
            List.of(
                Route.of(
                    Route.Method.GET,
                    "/v1/ns/{ns}/legal-check",
                    Role.LEGAL,
                    Route.NamespaceAccess.PATH,
                    false,
                    ex -> ex.json(200, "{\"ok\":true}")));
    http = new ServerFixture(dir.resolve("data"), ConfigFile.load(config), List.of(l -> legal));
    uid = add(NS, acme.get(Role.WRITER));
    add("globex", globexWriter);
  }

  private static String token(Path config, Role role, String ns) {
    return ConfigFile.addToken(config, role, List.of(Grant.of(ns)), Optional.empty()).token();
  }

  private String add(String ns, String token) {
    Reply r =
        http.send(
            "POST", "/v1/ns/" + ns + "/traces", Optional.of(token), Optional.of("{\"content\":1}"));
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("uid").asText();
  }

  @AfterEach
  void stop() {
    http.close();
  }

  private Reply call(Route route, String ns, String uidToUse, Optional<String> token) {
    String path = route.path().replace("{ns}", ns).replace("{uid}", uidToUse);
    Optional<String> body = route.takesBody() ? Optional.of("{\"content\":2}") : Optional.empty();
    return http.send(route.method().name(), path, token, body);
  }

  /** The lowest role that may use a route, and one just below it that may not, if any. */
  private static Optional<Role> below(Role required) {
    return switch (required) {
      case READER -> Optional.empty();
      case WRITER -> Optional.of(Role.READER);
      case ADMIN -> Optional.of(Role.WRITER);
      case LEGAL -> Optional.of(Role.ADMIN);
    };
  }

  @Test
  void everyRoute_everyKindOfCaller_getsTheRightAnswer() {
    List<String> checked = new ArrayList<>();
    for (Route route : http.server.routes()) {
      String name = route.method() + " " + route.path();
      if (route.role().isEmpty()) {
        assertThat(call(route, NS, uid, Optional.empty()).status()).as(name).isEqualTo(200);
        checked.add(name + " open");
        continue;
      }
      Role required = route.role().get();

      Reply none = call(route, NS, uid, Optional.empty());
      HttpApiTest.assertProblem(none, 401, "unauthorized");
      assertThat(none.header("WWW-Authenticate")).as(name).contains("Bearer realm=\"loci\"");

      Reply bad = call(route, NS, uid, Optional.of("loci_not-a-real-token"));
      HttpApiTest.assertProblem(bad, 401, "unauthorized");

      Optional<Role> lower = below(required);
      if (lower.isPresent()) {
        HttpApiTest.assertProblem(
            call(route, NS, uid, Optional.of(acme.get(lower.get()))), 403, "forbidden");
      }

      if (route.namespaces() != Route.NamespaceAccess.NONE) {
        String foreign = required == Role.LEGAL ? globexAdmin : globexWriter;
        Reply existing = call(route, NS, uid, Optional.of(foreign));
        Reply missing = call(route, NS, "no-such-uid", Optional.of(foreign));
        HttpApiTest.assertProblem(existing, 403, "forbidden");
        assertThat(existing.body()).as(name).isEqualTo(missing.body()).doesNotContain(uid);
      }

      String right = required == Role.ADMIN ? acme.get(Role.ADMIN) : acme.get(required);
      Reply ok = call(route, NS, uid, Optional.of(right));
      assertThat(ok.status()).as(name + ": " + ok.body()).isBetween(200, 201);
      checked.add(name);
    }
    assertThat(checked)
        .contains(
            "GET /health open",
            "GET /metrics",
            "POST /v1/ns/{ns}/traces",
            "GET /v1/ns/{ns}/traces/{uid}/history",
            "GET /v1/ns/{ns}/legal-check");
    assertThat(checked).hasSize(http.server.routes().size());
  }

  @Test
  void legal_readsLikeReaderButCannotWrite_andOnlyLegalPassesLegalRoutes() {
    String legal = acme.get(Role.LEGAL);
    assertThat(
            http.send(
                    "GET", "/v1/ns/" + NS + "/traces/" + uid, Optional.of(legal), Optional.empty())
                .status())
        .isEqualTo(200);
    HttpApiTest.assertProblem(
        http.send(
            "POST", "/v1/ns/" + NS + "/traces", Optional.of(legal), Optional.of("{\"content\":1}")),
        403,
        "forbidden");
    HttpApiTest.assertProblem(
        http.send(
            "GET",
            "/v1/ns/" + NS + "/legal-check",
            Optional.of(acme.get(Role.ADMIN)),
            Optional.empty()),
        403,
        "forbidden");
  }

  @Test
  void search_subtreeNeverCrossesTheCredentialsScope() {
    String reader = acme.get(Role.READER);
    Reply all =
        http.send("GET", "/v1/ns/acme/traces?subtree=true", Optional.of(reader), Optional.empty());
    assertThat(all.status()).isEqualTo(200);
    for (JsonNode t : all.json().get("items")) {
      assertThat(t.get("namespace").asText()).startsWith("acme");
    }
    assertThat(all.json().get("items")).hasSize(1);

    HttpApiTest.assertProblem(
        http.send(
            "GET",
            "/v1/ns/" + NS + "/traces?subtree=true",
            Optional.of(exactReader),
            Optional.empty()),
        403,
        "forbidden");
    assertThat(
            http.send("GET", "/v1/ns/" + NS + "/traces", Optional.of(exactReader), Optional.empty())
                .json()
                .get("items"))
        .hasSize(1);
    HttpApiTest.assertProblem(
        http.send(
            "GET",
            "/v1/ns/acme/trace-count?subtree=true",
            Optional.of(exactReader),
            Optional.empty()),
        403,
        "forbidden");
    HttpApiTest.assertProblem(
        http.send("GET", "/v1/ns/globex/traces", Optional.of(reader), Optional.empty()),
        403,
        "forbidden");
  }

  @Test
  void writes_recordTheTokenIdAsActor_neverTheToken() throws Exception {
    http.close();
    String journal =
        String.join(
            "\n",
            java.nio.file.Files.readAllLines(
                java.nio.file.Files.list(dir.resolve("data").resolve("journal"))
                    .filter(p -> p.toString().endsWith(".jsonl"))
                    .findFirst()
                    .orElseThrow()));
    assertThat(journal).contains("\"actor\":\"token:t-");
    for (String t : acme.values()) {
      assertThat(journal).doesNotContain(t);
    }
    http = new ServerFixture(dir.resolve("data2"));
  }
}
