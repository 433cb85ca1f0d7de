package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.server.ServerFixture.Reply;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pathway routes over real HTTP with credentials: the lifecycle of spec section 5, the queries
 * of section 6.2, {@code list_versions}, every {@code include_history} read and the state export
 * behind the legal role (also with no credential configured), import and export, redaction, bad
 * input and namespace isolation.
 */
class PathwayHttpTest {
  private static final String NS = "acme.scrum";
  private static final String P = "/v1/ns/" + NS;
  private static final String REVIEW =
      "{\"task_class\":\"scrum_review\",\"file_path\":\"crates/queryd/src/service.rs\","
          + "\"signal_class\":\"LOOPING\",\"final_verdict\":\"accepted\","
          + "\"reducer_summary\":\"converged after two rungs\"}";
  private static final String HOTSWAP =
      "/pathway-hotswap?task_class=scrum_review&file_path=crates/queryd/x.rs&signal_class=LOOPING";
  private static final long SMALL_CAP = 2048;

  @TempDir Path dir;
  private ServerFixture http;
  private final Map<Role, String> acme = new EnumMap<>(Role.class);
  private String globexWriter;

  @BeforeEach
  void start() {
    Path config = dir.resolve("loci.toml");
    for (Role r : Role.values()) {
      acme.put(r, ConfigFile.addToken(config, r, List.of(Grant.of("acme.*")), id(r)).token());
    }
    globexWriter =
        ConfigFile.addToken(config, Role.WRITER, List.of(Grant.of("globex")), Optional.empty())
            .token();
    ServerConfig.BodyLimits caps =
        new ServerConfig.BodyLimits(
            ServerConfig.BodyLimits.DEFAULT_BYTES, Map.of("/v1/ns/acme.small/", SMALL_CAP));
    http = new ServerFixture(dir.resolve("data"), ConfigFile.load(config).withBodyLimits(caps));
  }

  private static Optional<String> id(Role r) {
    return Optional.of("acme-" + r.label());
  }

  @AfterEach
  void stop() {
    http.close();
  }

  // ---------------------------------------------------------------- helpers

  private Reply call(String method, String path, Role role, String json) {
    return call(method, path, acme.get(role), json);
  }

  private Reply call(String method, String path, String token, String json) {
    return http.send(method, path, Optional.of(token), Optional.ofNullable(json));
  }

  private static JsonNode expect(Reply r, int status) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    return r.json();
  }

  private JsonNode insert(String ns, String token, String json) {
    return expect(call("POST", "/v1/ns/" + ns + "/pathway-traces", token, json), 201).get("trace");
  }

  private JsonNode replay(String uid, boolean succeeded) {
    return expect(
        call(
            "POST",
            P + "/pathway-traces/" + uid + "/replays",
            Role.WRITER,
            "{\"succeeded\":" + succeeded + "}"),
        200);
  }

  private static List<String> uids(JsonNode items) {
    List<String> out = new ArrayList<>();
    for (JsonNode t : items) {
      out.add((t.has("trace") ? t.get("trace") : t).get("trace_uid").asText());
    }
    return out;
  }

  private List<String> hotswap(String path) {
    return uids(expect(call("GET", path, Role.READER, null), 200).get("items"));
  }

  private static void assertField(Reply r, String field) {
    HttpApiTest.assertField(r, "invalid-field", field);
  }

  private long seq() {
    return http.server.loci().lastSeq();
  }

  private long legalReads() {
    return http.server
        .loci()
        .legalReads()
        .list(dev.loci.NamespaceScope.exactly(dev.loci.Namespace.of(NS)))
        .size();
  }

  private List<String> legalHotswap(String path) {
    return uids(expect(call("GET", path, Role.LEGAL, null), 200).get("items"));
  }

  // ---------------------------------------------------------------- tests

  @Test
  void lifecycle_insertGetReviseReplayToRetirement_thenQueriesVersionsAndStats() {
    Reply inserted = call("POST", P + "/pathway-traces", Role.WRITER, REVIEW);
    JsonNode v1 = expect(inserted, 201).get("trace");
    String uid1 = v1.get("trace_uid").asText();
    assertThat(inserted.json().get("redactions").asInt()).isZero();
    assertThat(inserted.header("Location")).contains(P + "/pathway-traces/" + uid1);
    assertThat(v1.get("version").asInt()).isEqualTo(1);
    assertThat(v1.get("pathway_id").asText()).matches("[0-9a-f]{64}");
    assertThat(v1.get("pathway_vec")).hasSize(32);
    assertThat(v1.get("replay_count").asInt()).isZero();
    assertThat(v1.get("parent_trace_uid").isNull()).isTrue();
    assertThat(expect(call("GET", P + "/pathway-traces/" + uid1, Role.READER, null), 200))
        .isEqualTo(v1);

    Reply revised =
        call(
            "POST",
            P + "/pathway-traces/" + uid1 + "/revisions",
            Role.WRITER,
            "{\"final_verdict\":\"needs_review\"}");
    JsonNode v2 = expect(revised, 201).get("trace");
    String uid2 = v2.get("trace_uid").asText();
    assertThat(revised.header("Location")).contains(P + "/pathway-traces/" + uid2);
    assertThat(v2.get("version").asInt()).isEqualTo(2);
    assertThat(v2.get("parent_trace_uid").asText()).isEqualTo(uid1);
    assertThat(v2.get("final_verdict").asText()).isEqualTo("needs_review");
    assertThat(v2.get("reducer_summary")).isEqualTo(v1.get("reducer_summary"));

    Reply superseded = call("GET", P + "/pathway-traces/" + uid1, Role.READER, null);
    HttpApiTest.assertProblem(superseded, 404, "not-found");
    assertThat(superseded.json().get("field").asText()).isEqualTo("trace_uid");
    String historic = P + "/pathway-traces/" + uid1 + "?include_history=true";
    for (Role r : List.of(Role.READER, Role.WRITER, Role.ADMIN)) {
      HttpApiTest.assertProblem(call("GET", historic, r, null), 403, "forbidden");
    }
    JsonNode old = expect(call("GET", historic, Role.LEGAL, null), 200);
    assertThat(old.get("superseded_by_trace_uid").asText()).isEqualTo(uid2);

    long before = seq();
    HttpApiTest.assertProblem(
        call(
            "POST",
            P + "/pathway-traces/" + uid1 + "/revisions",
            Role.WRITER,
            "{\"final_verdict\":\"x\"}"),
        409,
        "conflict");
    assertThat(seq()).isEqualTo(before);

    assertThat(hotswap(P + HOTSWAP)).containsExactly(uid2);
    assertThat(replay(uid2, false).get("retired").asBoolean()).isFalse();
    JsonNode second = replay(uid1, false); // a superseded uid counts on its head
    assertThat(second.get("trace_uid").asText()).isEqualTo(uid2);
    assertThat(second.get("retired").asBoolean()).isFalse();
    JsonNode third = replay(uid2, false);
    assertThat(third.get("replay_count").asInt()).isEqualTo(3);
    assertThat(third.get("replays_succeeded").asInt()).isZero();
    assertThat(third.get("retired").asBoolean()).isTrue();
    assertThat(hotswap(P + HOTSWAP)).isEmpty();
    assertThat(legalHotswap(P + HOTSWAP + "&include_history=true")).isEmpty();

    String vec = v2.get("pathway_vec").toString();
    String similar = P + "/pathway-similar";
    JsonNode retired =
        expect(
                call(
                    "POST",
                    similar,
                    Role.READER,
                    "{\"pathway_vec\":" + vec + ",\"k\":1,\"include_retired\":true}"),
                200)
            .get("items");
    assertThat(uids(retired)).containsExactly(uid2);
    assertThat(retired.get(0).get("score").asDouble()).isGreaterThan(0.99);
    assertThat(
            expect(call("POST", similar, Role.READER, "{\"pathway_vec\":" + vec + "}"), 200)
                .get("items"))
        .isEmpty();
    before = seq();
    long legalBefore = legalReads();
    assertField(
        call("POST", similar, Role.READER, "{\"pathway_vec\":" + Collections.nCopies(31, 1) + "}"),
        "pathway_vec");

    String versions = P + "/pathway-traces/" + uid2 + "/versions";
    for (Role r : List.of(Role.READER, Role.WRITER, Role.ADMIN)) {
      HttpApiTest.assertProblem(call("GET", versions, r, null), 403, "forbidden");
    }
    JsonNode chain = expect(call("GET", versions, Role.LEGAL, null), 200).get("items");
    assertThat(uids(chain)).containsExactly(uid1, uid2);
    assertThat(
            uids(
                expect(call("GET", versions.replace(uid2, uid1), Role.LEGAL, null), 200)
                    .get("items")))
        .containsExactly(uid1, uid2);

    String pathway = P + "/pathways/" + v1.get("pathway_id").asText();
    assertThat(hotswap(pathway)).isEmpty();
    assertThat(hotswap(pathway + "?include_retired=true")).containsExactly(uid2);
    assertThat(legalHotswap(pathway + "?include_retired=true&include_history=true"))
        .containsExactly(uid1, uid2);

    JsonNode stats = expect(call("GET", P + "/pathway-stats", Role.READER, null), 200);
    assertThat(stats.get("pathways").asLong()).isEqualTo(1);
    assertThat(stats.get("retired_pathways").asLong()).isEqualTo(1);
    assertThat(stats.get("traces").asLong()).isEqualTo(2);
    assertThat(stats.get("head_traces").asLong()).isEqualTo(1);
    assertThat(stats.get("replays").asLong()).isEqualTo(3);
    assertThat(stats.get("replays_succeeded").asLong()).isZero();
    // reads write nothing but the record of each legal read
    assertThat(legalReads() - legalBefore).isEqualTo(3);
    assertThat(seq()).isEqualTo(before + legalReads() - legalBefore);
  }

  @Test
  void versionsAndStateExport_refusedWithNoCredentialConfigured_evenToTheLocalUser() {
    try (ServerFixture open = new ServerFixture(dir.resolve("open"))) {
      Reply inserted = open.post(P + "/pathway-traces", REVIEW);
      String uid = expect(inserted, 201).get("trace").get("trace_uid").asText();
      expect(
          open.post(P + "/pathway-traces/" + uid + "/revisions", "{\"final_verdict\":\"x\"}"), 201);
      HttpApiTest.assertProblem(
          open.get(P + "/pathway-traces/" + uid + "?include_history=true"), 403, "forbidden");

      for (String path :
          List.of(P + "/pathway-traces/" + uid + "/versions", P + "/pathway-state")) {
        // a server without credentials ignores tokens: even one that is legal elsewhere
        Reply refused = open.send("GET", path, Optional.of(acme.get(Role.LEGAL)), Optional.empty());
        HttpApiTest.assertProblem(refused, 403, "forbidden");
        assertThat(refused.json().get("detail").asText())
            .contains("requires a legal credential", "no credential configured");
        assertThat(refused.body()).doesNotContain(uid, "converged");
      }
    }
  }

  @Test
  void exportThenImport_roundTripsBetweenNamespaces_andRepeatingSkips() {
    String a = insert(NS, acme.get(Role.WRITER), REVIEW).get("trace_uid").asText();
    insert(
        NS,
        acme.get(Role.WRITER),
        "{\"task_class\":\"pr_audit\",\"file_path\":\"auditor/src/main.ts\","
            + "\"semantic_flags\":[\"OffByOne\"],\"subject_ids\":[\"cand-1\"],\"x_extra\":{\"k\":1}}");
    expect(
        call(
            "POST",
            P + "/pathway-traces/" + a + "/revisions",
            Role.WRITER,
            "{\"final_verdict\":\"r\"}"),
        201);
    Reply exported = call("GET", P + "/pathway-state", Role.LEGAL, null);
    JsonNode state = expect(exported, 200);
    assertThat(state.get("pathways")).hasSize(2);
    HttpApiTest.assertProblem(
        call("GET", P + "/pathway-state", Role.ADMIN, null), 403, "forbidden");

    String copy = "/v1/ns/acme.copy/pathway-state";
    JsonNode report = expect(call("PUT", copy, Role.ADMIN, exported.body()), 200);
    assertThat(report.get("imported").asInt()).isEqualTo(3);
    assertThat(report.get("skipped").asInt()).isZero();
    assertThat(report.get("legacy_assigned").asInt()).isZero();
    JsonNode again = expect(call("PUT", copy, Role.ADMIN, exported.body()), 200);
    assertThat(again.get("imported").asInt()).isZero();
    assertThat(again.get("skipped").asInt()).isEqualTo(3);

    assertThat(expect(call("GET", copy, Role.LEGAL, null), 200)).isEqualTo(state);
    JsonNode copied = expect(call("GET", "/v1/ns/acme.copy/pathway-stats", Role.READER, null), 200);
    assertThat(copied.get("traces").asLong()).isEqualTo(3);
    assertThat(copied.get("head_traces").asLong()).isEqualTo(2);
  }

  @Test
  void import_invalidTraceOrOverTheCap_refusedAndNothingStored() {
    String id = "a".repeat(64);
    long before = seq();
    Reply invalid =
        call(
            "PUT",
            "/v1/ns/acme.copy/pathway-state",
            Role.ADMIN,
            "{\"pathways\":{\""
                + id
                + "\":[{\"task_class\":\"t\",\"file_path\":\"a/b\",\"created_at\":"
                + "\"2026-05-03T08:07:38Z\"},{\"task_class\":\"\",\"file_path\":\"a/b\"}]}}");
    assertField(invalid, "pathways." + id + "[1].task_class");
    assertField(call("PUT", "/v1/ns/acme.copy/pathway-state", Role.ADMIN, "[]"), "state");
    assertField(call("PUT", "/v1/ns/acme.copy/pathway-state", Role.ADMIN, "{}"), "pathways");

    StringBuilder big = new StringBuilder("{\"pathways\":{\"" + id + "\":[");
    for (int i = 0; big.length() <= SMALL_CAP * 2; i++) {
      big.append(i == 0 ? "" : ",")
          .append("{\"task_class\":\"t\",\"file_path\":\"a/b\",\"trace_uid\":\"u-")
          .append(i)
          .append("\",\"created_at\":\"2026-05-03T08:07:38Z\"}");
    }
    byte[] body = big.append("]}}").toString().getBytes(StandardCharsets.UTF_8);
    Reply chunked =
        http.send(
            http.request("/v1/ns/acme.small/pathway-state", Optional.of(acme.get(Role.ADMIN)))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build());
    assertThat(chunked.raw().request().headers().firstValue("Content-Length")).isEmpty();
    HttpApiTest.assertProblem(chunked, 413, "body-too-large");
    assertThat(chunked.json().get("detail").asText()).contains(SMALL_CAP + " bytes");
    assertThat(seq()).isEqualTo(before);

    Reply fits =
        call(
            "PUT",
            "/v1/ns/acme.other/pathway-state",
            Role.ADMIN,
            new String(body, StandardCharsets.UTF_8));
    assertThat(expect(fits, 200).get("imported").asInt()).isGreaterThan(10);
  }

  @Test
  void redactionPolicy_setOverHttp_appliesToLaterWrites_andOffTurnsItOff() {
    String policy = P + "/pathway-redaction";
    JsonNode defaults = expect(call("GET", policy, Role.READER, null), 200);
    assertThat(defaults.get("enabled").asBoolean()).isTrue();
    assertThat(defaults.findValuesAsText("name")).containsExactly("email", "phone", "candidate_id");

    String summary = "{\"task_class\":\"t\",\"file_path\":\"a/b\",\"reducer_summary\":";
    Reply byDefault =
        call("POST", P + "/pathway-traces", Role.WRITER, summary + "\"mail jane@example.com\"}");
    assertThat(expect(byDefault, 201).get("redactions").asInt()).isEqualTo(1);
    assertThat(byDefault.json().get("trace").get("reducer_summary").asText())
        .isEqualTo("mail [email]");

    JsonNode set =
        expect(
            call(
                "PUT",
                policy,
                Role.ADMIN,
                "{\"rules\":[{\"name\":\"badge\",\"regex\":\"B-\\\\d+\"},{\"name\":\"phone\"}]}"),
            200);
    assertThat(set.findValuesAsText("name")).containsExactly("badge", "phone");
    assertThat(expect(call("GET", P + ".sub/pathway-redaction", Role.READER, null), 200))
        .isEqualTo(set);
    Reply custom =
        call(
            "POST",
            P + "/pathway-traces",
            Role.WRITER,
            summary + "\"badge B-1234 jane@example.com\"}");
    assertThat(expect(custom, 201).get("trace").get("reducer_summary").asText())
        .isEqualTo("badge [badge] jane@example.com");

    HttpApiTest.assertProblem(
        call("PUT", policy, Role.WRITER, "{\"enabled\":false}"), 403, "forbidden");
    expect(call("PUT", policy, Role.ADMIN, "{\"enabled\":false}"), 200);
    JsonNode off = expect(call("GET", policy, Role.READER, null), 200);
    assertThat(off.get("enabled").asBoolean()).isFalse();
    assertThat(off.get("rules")).isEmpty();
    Reply kept =
        call("POST", P + "/pathway-traces", Role.WRITER, summary + "\"mail jane@example.com\"}");
    assertThat(expect(kept, 201).get("redactions").asInt()).isZero();
    assertThat(kept.json().get("trace").get("reducer_summary").asText())
        .isEqualTo("mail jane@example.com");

    long before = seq();
    assertField(call("PUT", policy, Role.ADMIN, "{\"enabled\":\"no\"}"), "enabled");
    assertField(call("PUT", policy, Role.ADMIN, "{\"enabled\":true}"), "rules");
    assertField(
        call("PUT", policy, Role.ADMIN, "{\"rules\":[{\"name\":\"Bad Name\",\"regex\":\"x\"}]}"),
        "rules[0].name");
    assertField(
        call("PUT", policy, Role.ADMIN, "{\"rules\":[{\"name\":\"x\",\"regex\":\"(\"}]}"),
        "rules[0].regex");
    assertField(call("PUT", policy, Role.ADMIN, "{\"rules\":[],\"colour\":1}"), "colour");
    assertThat(seq()).isEqualTo(before);
    assertThat(expect(call("GET", policy, Role.READER, null), 200)).isEqualTo(off);
  }

  @Test
  void badInput_400NamingTheField_andNothingChanges() {
    String uid = insert(NS, acme.get(Role.WRITER), REVIEW).get("trace_uid").asText();
    String t = P + "/pathway-traces";
    String replays = t + "/" + uid + "/replays";
    long before = seq();

    assertField(call("POST", t, Role.WRITER, "{\"file_path\":\"a/b\"}"), "task_class");
    assertField(
        call("POST", t, Role.WRITER, "{\"task_class\":\" \",\"file_path\":\"a/b\"}"), "task_class");
    assertField(call("POST", t, Role.WRITER, "{\"task_class\":\"t\"}"), "file_path");
    assertField(
        call("POST", t, Role.WRITER, "{\"task_class\":\"t\",\"file_path\":\"a\",\"version\":2}"),
        "version");
    assertField(
        call(
            "POST",
            t,
            Role.WRITER,
            "{\"task_class\":\"t\",\"file_path\":\"a\",\"semantic_flags\":[\"Nope\"]}"),
        "semantic_flags");
    HttpApiTest.assertField(call("POST", t, Role.WRITER, "{bad"), "malformed-json", "body");
    assertField(call("POST", t + "?ns=x", Role.WRITER, REVIEW), "ns");

    assertField(call("POST", replays, Role.WRITER, "{}"), "succeeded");
    assertField(call("POST", replays, Role.WRITER, "{\"succeeded\":\"yes\"}"), "succeeded");
    assertField(call("POST", replays, Role.WRITER, "{\"succeeded\":1}"), "succeeded");
    assertField(call("POST", replays, Role.WRITER, "{\"succeeded\":null}"), "succeeded");
    assertField(call("POST", replays, Role.WRITER, "{\"succeeded\":true,\"count\":2}"), "count");
    Reply ghost = call("POST", t + "/ghost/replays", Role.WRITER, "{\"succeeded\":true}");
    HttpApiTest.assertProblem(ghost, 404, "not-found");
    assertThat(ghost.json().get("field").asText()).isEqualTo("trace_uid");
    HttpApiTest.assertProblem(
        call("POST", t + "/ghost/revisions", Role.WRITER, "{\"final_verdict\":\"x\"}"),
        404,
        "not-found");
    assertField(
        call("POST", t + "/" + uid + "/revisions", Role.WRITER, "{\"task_class\":\"other\"}"),
        "task_class");
    assertField(
        call("POST", t + "/" + uid + "/revisions", Role.WRITER, "{\"trace_uid\":\"x\"}"),
        "trace_uid");

    String hot = P + "/pathway-hotswap?task_class=scrum_review&file_path=a/b";
    assertField(call("GET", P + "/pathway-hotswap?file_path=a/b", Role.READER, null), "task_class");
    assertField(
        call("GET", P + "/pathway-hotswap?task_class=scrum_review", Role.READER, null),
        "file_path");
    for (String k : List.of("0", "1001", "ten", "2.5")) {
      assertField(call("GET", hot + "&k=" + k, Role.READER, null), "k");
    }
    assertField(call("GET", hot + "&include_history=maybe", Role.READER, null), "include_history");
    assertField(call("GET", hot + "&subtree=maybe", Role.READER, null), "subtree");
    assertField(call("GET", hot + "&limit=3", Role.READER, null), "limit");

    String similar = P + "/pathway-similar";
    String ones = Collections.nCopies(32, 1).toString();
    assertField(call("POST", similar, Role.READER, "{}"), "pathway_vec");
    assertField(
        call("POST", similar, Role.READER, "{\"pathway_vec\":" + Collections.nCopies(33, 1) + "}"),
        "pathway_vec");
    assertField(
        call("POST", similar, Role.READER, "{\"pathway_vec\":" + Collections.nCopies(32, 0) + "}"),
        "pathway_vec");
    assertField(call("POST", similar, Role.READER, "{\"pathway_vec\":[\"a\"]}"), "pathway_vec");
    assertField(
        call("POST", similar, Role.READER, "{\"pathway_vec\":" + ones + ",\"k\":\"ten\"}"), "k");
    assertField(call("POST", similar, Role.READER, "{\"pathway_vec\":" + ones + ",\"k\":0}"), "k");
    assertField(
        call("POST", similar, Role.READER, "{\"pathway_vec\":" + ones + ",\"include_retired\":1}"),
        "include_retired");
    assertField(
        call("POST", similar, Role.READER, "{\"pathway_vec\":" + ones + ",\"limit\":1}"), "limit");

    assertField(call("GET", P + "/pathways/not-hex", Role.READER, null), "pathway_id");
    assertField(
        call("GET", t + "/" + uid + "?include_history=yes", Role.READER, null), "include_history");
    assertField(call("GET", P + "/pathway-stats?subtree=maybe", Role.READER, null), "subtree");
    assertField(call("GET", P + "/pathway-stats?verbose=true", Role.READER, null), "verbose");

    assertThat(seq()).isEqualTo(before);
    JsonNode stats = expect(call("GET", P + "/pathway-stats", Role.READER, null), 200);
    assertThat(stats.get("traces").asLong()).isEqualTo(1);
    assertThat(stats.get("replays").asLong()).isZero();
  }

  @Test
  void scopedCredential_neverSeesAnotherNamespacesPathways_evenThroughSubtreeQueries() {
    JsonNode mine = insert(NS, acme.get(Role.WRITER), REVIEW);
    String acmeUid = mine.get("trace_uid").asText();
    String globexUid = insert("globex", globexWriter, REVIEW).get("trace_uid").asText();
    String pathwayId = mine.get("pathway_id").asText();
    String vec = mine.get("pathway_vec").toString();

    assertThat(hotswap("/v1/ns/acme" + HOTSWAP + "&subtree=true")).containsExactly(acmeUid);
    assertThat(hotswap("/v1/ns/acme/pathways/" + pathwayId + "?subtree=true"))
        .containsExactly(acmeUid);
    assertThat(
            uids(
                expect(
                        call(
                            "POST",
                            "/v1/ns/acme/pathway-similar?subtree=true",
                            Role.READER,
                            "{\"pathway_vec\":" + vec + "}"),
                        200)
                    .get("items")))
        .containsExactly(acmeUid);
    assertThat(
            expect(call("GET", "/v1/ns/acme/pathway-stats?subtree=true", Role.READER, null), 200)
                .get("traces")
                .asLong())
        .isEqualTo(1);

    String g = "/v1/ns/globex";
    for (Role r : Role.values()) {
      for (Reply refused :
          List.of(
              call("GET", g + HOTSWAP, r, null),
              call("GET", g + "/pathways/" + pathwayId, r, null),
              call("POST", g + "/pathway-similar", r, "{\"pathway_vec\":" + vec + "}"),
              call("GET", g + "/pathway-stats", r, null),
              call("GET", g + "/pathway-traces/" + globexUid, r, null),
              call("GET", g + "/pathway-traces/" + globexUid + "/versions", r, null),
              call("GET", g + "/pathway-state", r, null),
              call("GET", g + "/pathway-redaction", r, null))) {
        HttpApiTest.assertProblem(refused, 403, "forbidden");
        assertThat(refused.body()).doesNotContain(globexUid);
      }
    }
    HttpApiTest.assertProblem(
        call("GET", "/v1/ns/acme.missing/pathway-traces/" + globexUid, Role.READER, null),
        404,
        "not-found");
    HttpApiTest.assertProblem(
        call("GET", P + "/pathway-traces/" + globexUid + "/versions", Role.LEGAL, null),
        404,
        "not-found");
    JsonNode acmeState = expect(call("GET", P + "/pathway-state", Role.LEGAL, null), 200);
    assertThat(acmeState.toString()).contains(acmeUid).doesNotContain(globexUid);
  }
}
