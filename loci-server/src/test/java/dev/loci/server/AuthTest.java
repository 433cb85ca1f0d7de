package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Namespace;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityType;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Reviewer;
import dev.loci.server.ServerFixture.Reply;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.RouteSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
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
  private static final String NODE =
      "{\"type\":\"note\",\"content\":\"alpha beta\",\"attributes\":{\"space\":\"notes\"}}";
  private static final String EDGE_KEY = "?from=n1&edge_type=related&to=n2";
  private static final String PATHWAY_TRACE =
      "{\"task_class\":\"scrum_review\",\"file_path\":\"crates/a/b.rs\"}";

  /** The body a route's successful sample request sends, by "METHOD path"; else a trace's. */
  private static final Map<String, String> SAMPLE_BODIES =
      Map.ofEntries(
          Map.entry("POST /v1/ns/{ns}/pathway-traces", PATHWAY_TRACE),
          Map.entry(
              "POST /v1/ns/{ns}/pathway-traces/{uid}/revisions", "{\"final_verdict\":\"revised\"}"),
          Map.entry("POST /v1/ns/{ns}/pathway-traces/{uid}/replays", "{\"succeeded\":true}"),
          Map.entry(
              "POST /v1/ns/{ns}/pathway-similar",
              "{\"pathway_vec\":" + Collections.nCopies(32, "1") + "}"),
          Map.entry("PUT /v1/ns/{ns}/pathway-state", "{\"pathways\":{}}"),
          Map.entry("PUT /v1/ns/{ns}/pathway-redaction", "{\"rules\":[{\"name\":\"email\"}]}"),
          Map.entry("PUT /v1/ns/{ns}/nodes/{id}", NODE),
          Map.entry(
              "PUT /v1/ns/{ns}/edges", "{\"from\":\"n1\",\"edge_type\":\"related\",\"to\":\"n2\"}"),
          Map.entry(
              "POST /v1/ns/{ns}/ingest",
              "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"terms.md\","
                  + "\"text\":\"1. The buyer pays within 30 days.\"}]}"),
          Map.entry("POST /v1/ns/{ns}/recall", "{\"query\":\"alpha\",\"mode\":\"lexical\"}"),
          Map.entry("POST /v1/ns/{ns}/subjects/{subject_id}/erase", "{\"reason\":\"request 1\"}"),
          Map.entry("PUT /v1/ns/{ns}/subjects/{subject_id}/policy", "{\"retain_days\":3650}"),
          Map.entry("PUT /v1/ns/{ns}/retention", "{\"retain_days\":3650}"),
          Map.entry("POST /v1/ns/{ns}/retention/sweep", "{\"dry_run\":true}"),
          Map.entry("POST /v1/ns/{ns}/feedback", "{\"node_ids\":[\"n1\"],\"useful\":true}"),
          Map.entry("POST /v1/ns/{ns}/consolidate", "{}"));

  /** The query string a route's sample request sends, by "METHOD path". */
  private static final Map<String, String> SAMPLE_QUERIES =
      Map.of(
          "GET /v1/ns/{ns}/pathway-hotswap",
          "?task_class=scrum_review&file_path=crates/a/b.rs",
          "GET /v1/ns/{ns}/edges",
          EDGE_KEY,
          "DELETE /v1/ns/{ns}/edges",
          EDGE_KEY);

  /** The subject the sample requests to subject routes name. */
  private static final String SUBJECT = "subj-7";

  @TempDir Path dir;
  private ServerFixture http;

  /** The governed record each governed route's sample request names, by "METHOD path". */
  private final Map<String, String> governIds = new HashMap<>();

  /** The governed routes' sample bodies that name records made in {@link #start}. */
  private final Map<String, String> governBodies = new HashMap<>();

  private final Map<Role, String> acme = new EnumMap<>(Role.class);
  private String globexWriter;
  private String globexAdmin;
  private String exactReader;
  private String uid;
  private String pathwayUid;
  private String reviseUid;
  private String pathwayId;

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
    JsonNode pathway = insertPathway(NS, acme.get(Role.WRITER));
    pathwayUid = pathway.get("trace_uid").asText();
    pathwayId = pathway.get("pathway_id").asText();
    reviseUid = insertPathway(NS, acme.get(Role.WRITER)).get("trace_uid").asText();
    insertPathway("globex", globexWriter);
    for (String id : List.of("n1", "n2", "doomed")) {
      putNode(NS, id, acme.get(Role.WRITER));
      putNode("globex", id, globexWriter);
    }
    governedRecords();
    for (String ns : List.of(NS, "globex")) {
      Reply edge =
          http.send(
              "PUT",
              "/v1/ns/" + ns + "/edges",
              Optional.of(ns.equals(NS) ? acme.get(Role.WRITER) : globexWriter),
              Optional.of(SAMPLE_BODIES.get("PUT /v1/ns/{ns}/edges")));
      assertThat(edge.status()).as(edge.body()).isEqualTo(200);
    }
  }

  /** A fresh governed record for every governed route that changes one, so each can succeed. */
  private void governedRecords() {
    GovernedMemory gov = GovernedMemory.of(http.server.loci());
    Namespace ns = Namespace.of(NS);
    Reviewer reviewer = new Reviewer("setup");
    gov.propose(ns, draft("the subject").withSubjects(List.of(SUBJECT)));
    String m = "/v1/ns/{ns}/memories/{memory_id}";
    String c = "/v1/ns/{ns}/candidates/{memory_id}";
    for (String key :
        List.of(
            "GET " + m,
            "POST " + m + "/reinforce",
            "POST " + m + "/promote",
            "POST " + m + "/reject",
            "POST " + c + "/promote",
            "POST " + c + "/reject")) {
      governIds.put(key, gov.propose(ns, draft(key)).memory().id());
    }
    for (String key : List.of("POST " + m + "/invalidate", "POST " + m + "/supersede")) {
      governIds.put(key, gov.add(ns, draft(key), reviewer).memory().id());
    }
    governBodies.put(
        "POST " + m + "/supersede",
        "{\"by\":\"" + gov.propose(ns, draft("successor")).memory().id() + "\"}");
    for (String verb : List.of("resolve", "dismiss")) {
      String a = gov.add(ns, draft("a " + verb).withSlot(verb), reviewer).memory().id();
      String conflict =
          gov.add(ns, draft("b " + verb).withSlot(verb), reviewer).conflicts().get(0).id();
      governIds.put("POST /v1/ns/{ns}/conflicts/{conflict_id}/" + verb, conflict);
      if (verb.equals("resolve")) {
        governBodies.put(
            "POST /v1/ns/{ns}/conflicts/{conflict_id}/resolve", "{\"winner\":\"" + a + "\"}");
      }
    }
    for (String method : List.of("GET", "DELETE")) {
      String key = "k-" + method.toLowerCase(java.util.Locale.ROOT);
      gov.setState(ns, key, "value", reviewer);
      governIds.put(method + " /v1/ns/{ns}/project-state/{key}", key);
    }
    governBodies.put(
        "POST /v1/ns/{ns}/memories", "{\"type\":\"knowledge\",\"content\":\"sample\"}");
    entityRecords(gov, ns, reviewer);
    governBodies.put("POST " + m + "/reject", "{\"reason\":\"no\"}");
    governBodies.put("POST " + m + "/invalidate", "{\"reason\":\"no\"}");
    governBodies.put("POST " + c + "/reject", "{\"reason\":\"no\"}");
    governBodies.put("PUT /v1/ns/{ns}/project-state/{key}", "{\"value\":\"v\"}");
    governBodies.put(
        "POST /v1/ns/{ns}/context", "{\"prompt\":\"what ships\",\"budget_tokens\":100}");
  }

  /** A fresh entity, interaction or memory for every entity and extraction route. */
  private void entityRecords(GovernedMemory gov, Namespace ns, Reviewer reviewer) {
    GovernedEntities ents = GovernedEntities.of(http.server.loci());
    String e = "/v1/ns/{ns}/entities/{entity_id}";
    String i = "/v1/ns/{ns}/interactions/{interaction_id}";
    for (String key :
        List.of(
            "GET " + e,
            "POST " + e + "/relationships",
            "POST " + e + "/promote",
            "POST " + e + "/reject",
            "POST " + e + "/fields")) {
      governIds.put(key, ents.propose(ns, entity(key)).entity().id());
    }
    for (String key : List.of("POST " + e + "/invalidate", "POST " + e + "/supersede")) {
      governIds.put(key, ents.add(ns, entity(key), reviewer).entity().id());
    }
    String other = ents.propose(ns, entity("other")).entity().id();
    governBodies.put("POST " + e + "/supersede", "{\"by\":\"" + other + "\"}");
    governBodies.put(
        "POST " + e + "/relationships", "{\"type\":\"relates_to\",\"target\":\"" + other + "\"}");
    governBodies.put("POST " + e + "/reject", "{\"reason\":\"no\"}");
    governBodies.put("POST " + e + "/invalidate", "{\"reason\":\"no\"}");
    governBodies.put("POST " + e + "/fields", "{\"fields\":{\"owner\":\"ops\"}}");
    governBodies.put("POST /v1/ns/{ns}/entities", "{\"type\":\"Fact\",\"name\":\"sample\"}");
    String interaction =
        gov.capture(
                ns,
                "I prefer short answers.",
                "setup",
                Optional.empty(),
                dev.loci.govern.spi.ExtractionTarget.BOTH)
            .interaction()
            .orElseThrow()
            .id();
    governIds.put("GET " + i, interaction);
    governIds.put("POST " + i + "/extract", interaction);
    governBodies.put(
        "POST /v1/ns/{ns}/interactions", "{\"text\":\"We decided to ship.\",\"speaker\":\"s\"}");
    governBodies.put(
        "POST /v1/ns/{ns}/extraction-waves",
        "{\"chunks\":[{\"id\":\"c1\",\"text\":\"Flow rate = 4 l/min\"}]}");
    governBodies.put("PUT /v1/ns/{ns}/governance", "{\"entities_canonical\":false}");
    governIds.put(
        "POST /v1/ns/{ns}/memories/{memory_id}/graduate",
        gov.add(ns, MemoryDraft.of(MemoryType.PROJECT, "The pump must be quiet", "setup"), reviewer)
            .memory()
            .id());
  }

  private static EntityDraft entity(String name) {
    return EntityDraft.of(EntityType.FACT, "entity for " + name, Map.of("value", "1"), "setup");
  }

  private static MemoryDraft draft(String content) {
    return MemoryDraft.of(MemoryType.KNOWLEDGE, "fact for " + content, "setup");
  }

  private void putNode(String ns, String id, String token) {
    Reply r =
        http.send("PUT", "/v1/ns/" + ns + "/nodes/" + id, Optional.of(token), Optional.of(NODE));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
  }

  private JsonNode insertPathway(String ns, String token) {
    Reply r =
        http.send(
            "POST",
            "/v1/ns/" + ns + "/pathway-traces",
            Optional.of(token),
            Optional.of(PATHWAY_TRACE));
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("trace");
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

  /**
   * A sample request to {@code route}, one the right caller gets a 2xx for: path parameters name
   * records that exist (or, unless {@code existing}, records that do not), and the route's sample
   * body and query are sent.
   */
  private Reply call(Route route, String ns, boolean existing, Optional<String> token) {
    String key = route.method() + " " + route.path();
    String path =
        route
                .path()
                .replace("{ns}", ns)
                .replace("{uid}", existing ? uidFor(route) : "no-such-uid")
                .replace("{pathway_id}", existing ? pathwayId : "0".repeat(64))
                .replace("{id}", existing ? nodeFor(route) : "no-such-node")
                .replace(
                    "{memory_id}", existing ? governIds.getOrDefault(key, "-") : "no-such-memory")
                .replace(
                    "{conflict_id}",
                    existing ? governIds.getOrDefault(key, "-") : "no-such-conflict")
                .replace("{key}", existing ? governIds.getOrDefault(key, "k-new") : "no-such-key")
                .replace("{subject_id}", existing ? SUBJECT : "no-such-subject")
                .replace(
                    "{entity_id}", existing ? governIds.getOrDefault(key, "-") : "no-such-entity")
                .replace(
                    "{interaction_id}",
                    existing ? governIds.getOrDefault(key, "-") : "no-such-interaction")
            + SAMPLE_QUERIES.getOrDefault(key, "");
    Optional<String> body =
        route.takesBody()
            ? Optional.of(
                governBodies.getOrDefault(key, SAMPLE_BODIES.getOrDefault(key, "{\"content\":2}")))
            : Optional.empty();
    return http.send(route.method().name(), path, token, body);
  }

  /** The record a route's {uid} names: a trace, or a pathway trace (its own one to revise). */
  private String uidFor(Route route) {
    if (route.path().endsWith("/pathway-traces/{uid}/revisions")) {
      return reviseUid;
    }
    return route.path().contains("/pathway-traces/") ? pathwayUid : uid;
  }

  /** The node a route's {id} names: its own one for the removal, so the others still find n1. */
  private static String nodeFor(Route route) {
    if (route.path().endsWith("/spaces/{id}")) {
      return "notes";
    }
    return route.method() == Route.Method.DELETE ? "doomed" : "n1";
  }

  /** The lowest role that may use a route, and one just below it that may not, if any. */
  private static Optional<Role> below(Role required) {
    return switch (required) {
      case READER -> Optional.empty();
      case WRITER -> Optional.of(Role.READER);
      case REVIEWER -> Optional.of(Role.WRITER);
      case ADMIN -> Optional.of(Role.REVIEWER);
      case LEGAL -> Optional.of(Role.ADMIN);
    };
  }

  @Test
  void everyRoute_everyKindOfCaller_getsTheRightAnswer() {
    List<String> checked = new ArrayList<>();
    for (Route route : http.server.routes()) {
      String name = route.method() + " " + route.path();
      if (route.role().isEmpty()) {
        assertThat(call(route, NS, true, Optional.empty()).status()).as(name).isEqualTo(200);
        checked.add(name + " open");
        continue;
      }
      Role required = route.role().get();

      Reply none = call(route, NS, true, Optional.empty());
      HttpApiTest.assertProblem(none, 401, "unauthorized");
      assertThat(none.header("WWW-Authenticate")).as(name).contains("Bearer realm=\"loci\"");

      Reply bad = call(route, NS, true, Optional.of("loci_not-a-real-token"));
      HttpApiTest.assertProblem(bad, 401, "unauthorized");

      Optional<Role> lower = below(required);
      if (lower.isPresent()) {
        HttpApiTest.assertProblem(
            call(route, NS, true, Optional.of(acme.get(lower.get()))), 403, "forbidden");
      }

      if (route.namespaces() != Route.NamespaceAccess.NONE) {
        String foreign = required == Role.LEGAL ? globexAdmin : globexWriter;
        Reply existing = call(route, NS, true, Optional.of(foreign));
        Reply missing = call(route, NS, false, Optional.of(foreign));
        HttpApiTest.assertProblem(existing, 403, "forbidden");
        assertThat(existing.body())
            .as(name)
            .isEqualTo(missing.body())
            .doesNotContain(uidFor(route), pathwayId, "n1", "doomed");
      }

      String right = required == Role.ADMIN ? acme.get(Role.ADMIN) : acme.get(required);
      Reply ok = call(route, NS, true, Optional.of(right));
      assertThat(ok.status()).as(name + ": " + ok.body()).isBetween(200, 201);
      checked.add(name);
    }
    assertThat(checked)
        .contains(
            "GET /health open",
            "GET /metrics",
            "POST /v1/admin/resume",
            "POST /v1/ns/{ns}/traces",
            "GET /v1/ns/{ns}/traces/{uid}/history",
            "GET /v1/ns/{ns}/legal-check",
            "POST /v1/ns/{ns}/pathway-traces",
            "GET /v1/ns/{ns}/pathway-traces/{uid}/versions",
            "POST /v1/ns/{ns}/pathway-similar",
            "PUT /v1/ns/{ns}/pathway-state",
            "PUT /v1/ns/{ns}/nodes/{id}",
            "DELETE /v1/ns/{ns}/nodes/{id}",
            "DELETE /v1/ns/{ns}/edges",
            "POST /v1/ns/{ns}/ingest",
            "POST /v1/ns/{ns}/recall",
            "GET /v1/ns/{ns}/subjects/{subject_id}",
            "GET /v1/ns/{ns}/subjects/{subject_id}/audit",
            "POST /v1/ns/{ns}/subjects/{subject_id}/erase",
            "PUT /v1/ns/{ns}/subjects/{subject_id}/policy",
            "PUT /v1/ns/{ns}/retention",
            "POST /v1/ns/{ns}/retention/sweep",
            "GET /v1/ns/{ns}/spaces",
            "GET /v1/ns/{ns}/spaces/{id}",
            "GET /v1/ns/{ns}/memories-palace/{id}",
            "POST /v1/ns/{ns}/feedback",
            "POST /v1/ns/{ns}/consolidate",
            "POST /v1/ns/{ns}/lifecycle/sweep");
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

  /** Every read that can return superseded versions, as "METHOD path-and-query" and a body. */
  private List<String[]> historyReads() {
    String ns = "/v1/ns/" + NS;
    return List.of(
        new String[] {"GET", ns + "/pathway-traces/" + pathwayUid + "?include_history=true", null},
        new String[] {"GET", ns + "/pathways/" + pathwayId + "?include_history=true", null},
        new String[] {
          "GET",
          ns
              + "/pathway-hotswap?task_class=scrum_review&file_path=crates/a/b.rs&include_history=true",
          null
        },
        new String[] {
          "POST",
          ns + "/pathway-similar",
          "{\"pathway_vec\":" + Collections.nCopies(32, "1") + ",\"include_history\":true}"
        },
        new String[] {"GET", ns + "/nodes/n1?include_history=true", null},
        new String[] {"GET", ns + "/edges" + EDGE_KEY + "&include_history=true", null},
        new String[] {"GET", ns + "/traces/" + uid + "/history", null});
  }

  @Test
  void historyReads_everyRoleAndNamespace_onlyALegalTokenOfTheNamespacePasses_andIsRecorded() {
    for (String[] read : historyReads()) {
      Optional<String> body = Optional.ofNullable(read[2]);
      for (Role role : List.of(Role.READER, Role.WRITER, Role.ADMIN)) {
        Reply r = http.send(read[0], read[1], Optional.of(acme.get(role)), body);
        HttpApiTest.assertProblem(r, 403, "forbidden");
        assertThat(r.body()).as(role + " " + read[1]).contains("legal");
      }
      // a legal token of another namespace learns nothing here
      HttpApiTest.assertProblem(
          http.send(read[0], read[1], Optional.of(globexAdmin), body), 403, "forbidden");
      Reply ok = http.send(read[0], read[1], Optional.of(acme.get(Role.LEGAL)), body);
      assertThat(ok.status()).as(read[1] + ": " + ok.body()).isEqualTo(200);
    }
    // every legal read is in the journal with the token id as holder, never the token
    List<dev.loci.LegalRead> reads =
        http.server.loci().legalReads().list(dev.loci.NamespaceScope.exactly(Namespace.of(NS)));
    assertThat(reads).hasSize(historyReads().size());
    assertThat(reads)
        .extracting(dev.loci.LegalRead::action)
        .containsExactly(
            "pathway.get",
            "pathway.history",
            "pathway.hotswap",
            "pathway.similar",
            "node.history",
            "edge.history",
            "trace.history");
    String legalId =
        http.server.credentials().stream()
            .filter(
                c ->
                    c.role() == Role.LEGAL
                        && c.covers(dev.loci.NamespaceScope.exactly(Namespace.of(NS))))
            .findFirst()
            .orElseThrow()
            .id();
    assertThat(reads).allSatisfy(r -> assertThat(r.holder()).isEqualTo(legalId));
    assertThat(reads.get(0).records()).containsExactly(pathwayUid);
  }

  @Test
  void historyReads_withoutACredentialConfigured_refusedEvenToTheLocalUser() {
    try (ServerFixture open = new ServerFixture(dir.resolve("open"))) {
      String traceUid = open.add(NS, "{\"content\":1}").get("uid").asText();
      Reply r =
          open.send(
              "GET",
              "/v1/ns/" + NS + "/traces/" + traceUid + "/history",
              Optional.empty(),
              Optional.empty());
      HttpApiTest.assertProblem(r, 403, "forbidden");
      Reply node =
          open.send("PUT", "/v1/ns/" + NS + "/nodes/n1", Optional.empty(), Optional.of(NODE));
      assertThat(node.status()).isEqualTo(200);
      HttpApiTest.assertProblem(
          open.get("/v1/ns/" + NS + "/nodes/n1?include_history=true"), 403, "forbidden");
      assertThat(open.get("/v1/ns/" + NS + "/nodes/n1").status()).isEqualTo(200);
    }
  }

  @Test
  void legalRoutes_refusedWhenNoCredentialIsConfigured_otherRoutesServed() {
    try (ServerFixture open = new ServerFixture(dir.resolve("open"))) {
      List<String> legalRoutes = new ArrayList<>();
      for (Route route : open.server.routes()) {
        if (route.role().equals(Optional.of(Role.LEGAL))) {
          String path =
              route
                  .path()
                  .replace("{ns}", NS)
                  .replace("{uid}", "any")
                  .replace("{subject_id}", "any");
          Reply r = open.send(route.method().name(), path, Optional.empty(), Optional.empty());
          HttpApiTest.assertProblem(r, 403, "forbidden");
          assertThat(r.json().get("detail").asText()).contains("requires a legal credential");
          legalRoutes.add(route.method() + " " + route.path());
        }
      }
      assertThat(legalRoutes)
          .containsExactlyInAnyOrder(
              "GET /v1/ns/{ns}/traces/{uid}/history",
              "GET /v1/ns/{ns}/pathway-traces/{uid}/versions",
              "GET /v1/ns/{ns}/pathway-state",
              "GET /v1/ns/{ns}/subjects/{subject_id}/audit",
              "POST /v1/ns/{ns}/subjects/{subject_id}/erase",
              "PUT /v1/ns/{ns}/subjects/{subject_id}/policy",
              "PUT /v1/ns/{ns}/retention",
              "POST /v1/ns/{ns}/retention/sweep");
      assertThat(open.get("/v1/ns/" + NS + "/pathway-stats").status()).isEqualTo(200);
    }
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
  void recallAndIngest_neverCrossTheCredentialsScope() {
    String conversation =
        "[{\\\"sample_id\\\":\\\"c1\\\",\\\"conversation\\\":{\\\"speaker_a\\\":\\\"A\\\","
            + "\\\"speaker_b\\\":\\\"B\\\",\\\"session_1_date_time\\\":\\\"1:56 pm on 8 May, 2023\\\","
            + "\\\"session_1\\\":[{\\\"speaker\\\":\\\"A\\\",\\\"dia_id\\\":\\\"D1:1\\\","
            + "\\\"text\\\":\\\"alpha\\\"}]}}]";
    String body =
        "{\"pack\":\"conversation\",\"documents\":[{\"path\":\"c.json\",\"text\":\""
            + conversation
            + "\"}]}";
    long seq = http.server.loci().lastSeq();

    HttpApiTest.assertProblem(
        http.send(
            "POST",
            "/v1/ns/globex/ingest?subtree=true",
            Optional.of(globexWriter),
            Optional.of(body)),
        403,
        "forbidden");
    Reply inside =
        http.send("POST", "/v1/ns/globex/ingest", Optional.of(globexWriter), Optional.of(body));
    HttpApiTest.assertProblem(inside, 400, "invalid-field");
    assertThat(inside.json().get("field").asText()).isEqualTo("documents[0]");
    assertThat(http.server.loci().lastSeq()).isEqualTo(seq);

    Reply acmeIngest =
        http.send(
            "POST",
            "/v1/ns/" + NS + "/ingest?subtree=true",
            Optional.of(acme.get(Role.WRITER)),
            Optional.of(body));
    assertThat(acmeIngest.status()).as(acmeIngest.body()).isEqualTo(200);
    assertThat(acmeIngest.json().get("items").get(0).get("namespaces").get(0).asText())
        .isEqualTo(NS + ".c1");

    String reader = acme.get(Role.READER);
    Reply recall =
        http.send(
            "POST",
            "/v1/ns/" + NS + "/recall",
            Optional.of(reader),
            Optional.of("{\"query\":\"alpha beta\",\"mode\":\"hybrid\"}"));
    assertThat(recall.status()).as(recall.body()).isEqualTo(200);
    assertThat(recall.json().get("items")).isNotEmpty();
    for (JsonNode item : recall.json().get("items")) {
      assertThat(item.get("node").get("id").asText()).isIn("n1", "n2", "doomed");
    }
    HttpApiTest.assertProblem(
        http.send(
            "POST",
            "/v1/ns/globex/recall",
            Optional.of(reader),
            Optional.of("{\"query\":\"alpha\"}")),
        403,
        "forbidden");
    HttpApiTest.assertProblem(
        http.send("GET", "/v1/ns/globex/nodes", Optional.of(reader), Optional.empty()),
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
