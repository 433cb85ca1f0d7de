package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.server.ServerFixture.Reply;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.RouteSet;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** API v1 of the trace store over real HTTP: every operation, and every error status. */
class HttpApiTest {
  private static final String T = "/v1/ns/acme/traces";

  @TempDir Path dir;
  private ServerFixture http;

  private ServerFixture start(ServerConfig config) {
    http = new ServerFixture(dir, config);
    return http;
  }

  private ServerFixture start() {
    return start(ServerConfig.defaults());
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
  }

  static void assertProblem(Reply r, int status, String type) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    assertThat(r.header("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    JsonNode p = r.json();
    assertThat(p.get("type").asText()).isEqualTo("https://loci.dev/problems/" + type);
    assertThat(p.get("status").asInt()).isEqualTo(status);
    assertThat(p.get("title").asText()).isNotBlank();
    assertThat(p.get("detail").asText()).isNotBlank();
    assertThat(r.body()).doesNotContain("\tat ", "Exception", ".java:");
  }

  @Test
  void add_content_201WithLocationETagAndContentKeptByteForByte() {
    start();
    Reply r = http.post(T, "{\"content\": {\"n\": 1.10, \"s\": \"caf\u00e9\"}, \"tags\": [\"a\"]}");

    assertThat(r.status()).isEqualTo(201);
    JsonNode t = r.json();
    assertThat(r.body()).contains("\"content\":{\"n\":1.10,\"s\":\"caf\u00e9\"}");
    assertThat(t.get("namespace").asText()).isEqualTo("acme");
    assertThat(t.get("created_at").asText())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
    assertThat(r.header("Location")).contains(T + "/" + t.get("uid").asText());
    assertThat(r.header("ETag"))
        .hasValueSatisfying(e -> assertThat(e).matches("\"[A-Za-z0-9_-]{22}\""));

    Reply got = http.get(T + "/" + t.get("uid").asText());
    assertThat(got.status()).isEqualTo(200);
    assertThat(got.json()).isEqualTo(t);
    assertThat(got.header("ETag")).isEqualTo(r.header("ETag"));
  }

  @Test
  void add_withUid_takenUidIs409AndChangesNothing() {
    start();
    assertThat(http.post(T, "{\"content\":1,\"uid\":\"order-7\"}").status()).isEqualTo(201);
    Reply again = http.post(T, "{\"content\":2,\"uid\":\"order-7\"}");

    assertProblem(again, 409, "conflict");
    assertThat(http.get(T + "/order-7").json().get("content").asInt()).isEqualTo(1);
  }

  @Test
  void put_addIdempotent_createsThenReplays() {
    start();
    Reply first =
        http.send("PUT", T + "/k-1", Optional.empty(), Optional.of("{\"content\":{\"a\":1}}"));
    Reply second =
        http.send("PUT", T + "/k-1", Optional.empty(), Optional.of("{\"content\":{\"a\":2}}"));

    assertThat(first.status()).isEqualTo(201);
    assertThat(second.status()).isEqualTo(200);
    assertThat(second.json().get("replay_count").asInt()).isEqualTo(2);
    assertThat(second.json().get("content").get("a").asInt()).isEqualTo(1);
    // the 200 says the existing trace was kept and that the content sent was different
    assertThat(second.header("Loci-Kept")).contains("existing");
    assertThat(second.header("Loci-Content-Differs")).contains("true");
    assertThat(first.header("Loci-Kept")).isEmpty();
    Reply same =
        http.send("PUT", T + "/k-1", Optional.empty(), Optional.of("{\"content\":{ \"a\" : 1 }}"));
    assertThat(same.header("Loci-Content-Differs")).contains("false");
  }

  @Test
  void patch_update_ifMatchCurrentWritesAndStaleIs412() {
    start();
    Reply added = http.post(T, "{\"content\":{\"v\":1}}");
    String uid = added.json().get("uid").asText();
    String etag = added.header("ETag").orElseThrow();

    Reply updated =
        send("PATCH", T + "/" + uid, "{\"content\":{\"v\":2}}", Map.of("If-Match", etag));
    assertThat(updated.status()).isEqualTo(200);
    assertThat(updated.header("ETag")).isNotEqualTo(Optional.of(etag));

    Reply stale = send("PATCH", T + "/" + uid, "{\"content\":{\"v\":3}}", Map.of("If-Match", etag));
    assertProblem(stale, 412, "precondition-failed");
    assertThat(http.get(T + "/" + uid).json().get("content").get("v").asInt()).isEqualTo(2);

    Reply any = send("PATCH", T + "/" + uid, "{\"content\":{\"v\":4}}", Map.of("If-Match", "*"));
    assertThat(any.status()).isEqualTo(200);
    Reply weak =
        send(
            "PATCH",
            T + "/" + uid,
            "{\"content\":{\"v\":5}}",
            Map.of("If-Match", "W/" + any.header("ETag").orElseThrow()));
    assertProblem(weak, 412, "precondition-failed");
    Reply garbage =
        send("PATCH", T + "/" + uid, "{\"content\":{\"v\":5}}", Map.of("If-Match", "abc"));
    assertProblem(garbage, 400, "invalid-field");
    assertThat(garbage.json().get("field").asText()).isEqualTo("If-Match");
  }

  @Test
  void get_ifNoneMatchCurrent_304WithoutBody_staleOrOtherTag_200() {
    start();
    Reply added = http.post(T, "{\"content\":{\"v\":1}}");
    String uid = added.json().get("uid").asText();
    String etag = added.header("ETag").orElseThrow();

    Reply same = send("GET", T + "/" + uid, null, Map.of("If-None-Match", etag));
    assertThat(same.status()).isEqualTo(304);
    assertThat(same.body()).isEmpty();
    assertThat(same.header("ETag")).contains(etag);
    assertThat(
            send("GET", T + "/" + uid, null, Map.of("If-None-Match", "\"x\", W/" + etag)).status())
        .isEqualTo(304);
    assertThat(send("GET", T + "/" + uid, null, Map.of("If-None-Match", "*")).status())
        .isEqualTo(304);

    send("PATCH", T + "/" + uid, "{\"content\":{\"v\":2}}", Map.of("If-Match", etag));
    Reply changed = send("GET", T + "/" + uid, null, Map.of("If-None-Match", etag));
    assertThat(changed.status()).isEqualTo(200);
    assertThat(changed.json().get("content").get("v").asInt()).isEqualTo(2);
    assertThat(changed.header("ETag")).isNotEqualTo(Optional.of(etag));
    // a write is never answered 304, whatever If-None-Match says
    Reply patch =
        send("PATCH", T + "/" + uid, "{\"content\":{\"v\":3}}", Map.of("If-None-Match", "*"));
    assertThat(patch.status()).isEqualTo(200);
  }

  @Test
  void reviseAndRetire_ifMatchStale_412AndNothingChanges() {
    start();
    Reply added = http.post(T, "{\"content\":\"v1\"}");
    String uid = added.json().get("uid").asText();
    String etag = added.header("ETag").orElseThrow();
    http.send(
        "PUT",
        T + "/" + uid,
        Optional.empty(),
        Optional.of("{\"content\":0}")); // replay: new version

    assertProblem(
        send(
            "POST", T + "/" + uid + "/revisions", "{\"content\":\"v2\"}", Map.of("If-Match", etag)),
        412,
        "precondition-failed");
    assertProblem(
        send("POST", T + "/" + uid + "/retire", null, Map.of("If-Match", etag)),
        412,
        "precondition-failed");
    assertThat(http.get("/v1/ns/acme/trace-count").json().get("count").asInt()).isEqualTo(1);
    assertThat(http.get(T + "/" + uid).json().get("retired").asBoolean()).isFalse();

    String current = http.get(T + "/" + uid).header("ETag").orElseThrow();
    Reply revised =
        send(
            "POST",
            T + "/" + uid + "/revisions",
            "{\"content\":\"v2\",\"tags\":[\"t\"]}",
            Map.of("If-Match", current));
    assertThat(revised.status()).isEqualTo(201);
    assertThat(revised.json().get("predecessor_uid").asText()).isEqualTo(uid);
    Reply retired = send("POST", T + "/" + uid + "/retire", null, Map.of("If-Match", current));
    assertThat(retired.status()).isEqualTo(200);
    assertThat(retired.json().get("retired").asBoolean()).isTrue();

    List<dev.loci.Trace> history =
        http.server
            .loci()
            .traces()
            .history(
                Namespace.of("acme"),
                revised.json().get("uid").asText(),
                new dev.loci.LegalCapability("test"));
    assertThat(history).hasSize(2);
    assertThat(history.get(1).uid()).isEqualTo(uid);
  }

  @Test
  void search_pagesWithOpaqueCursor_subtreeAndFilters() {
    start();
    for (int i = 0; i < 5; i++) {
      http.add(
          "acme",
          "{\"content\":{\"i\":" + i + "},\"tags\":[\"" + (i % 2 == 0 ? "even" : "odd") + "\"]}");
    }
    http.add("acme.sub", "{\"content\":{\"i\":99},\"tags\":[\"even\"]}");

    Reply page1 = http.get(T + "?limit=2");
    assertThat(page1.json().get("items")).hasSize(2);
    String cursor = page1.json().get("next_cursor").asText();
    Reply page2 = http.get(T + "?limit=2&cursor=" + cursor);
    assertThat(page2.json().get("items").get(0).get("content").get("i").asInt()).isEqualTo(2);
    Reply last = http.get(T + "?limit=2&cursor=" + page2.json().get("next_cursor").asText());
    assertThat(last.json().get("items")).hasSize(1);
    assertThat(last.json().get("next_cursor").isNull()).isTrue();

    assertThat(http.get(T + "?tag=even").json().get("items")).hasSize(3);
    assertThat(http.get(T + "?tag=even&subtree=true").json().get("items")).hasSize(4);
    assertThat(http.get(T + "?contains=%2299%22").json().get("items")).isEmpty();
    assertThat(http.get("/v1/ns/acme/trace-count?subtree=true").json().get("count").asInt())
        .isEqualTo(6);
    assertThat(http.get(T + "?created_before=2000-01-01T00:00:00Z").json().get("items")).isEmpty();
  }

  @Test
  void badInput_400NamingTheFieldAndNothingWritten() {
    start();
    assertField(http.post(T, "{\"content\": }"), "malformed-json", "body");
    assertField(http.post(T, "[1,2]"), "malformed-json", "body");
    assertField(http.post(T, "{\"content\":1,\"content\":2}"), "malformed-json", "body");
    assertField(http.post(T, "{\"tags\":[\"a\"]}"), "invalid-field", "content");
    assertField(http.post(T, "{\"content\":1,\"tags\":\"a\"}"), "invalid-field", "tags");
    assertField(http.post(T, "{\"content\":1,\"tags\":[\" \"]}"), "invalid-field", "tags");
    assertField(http.post(T, "{\"content\":1,\"colour\":\"red\"}"), "invalid-field", "colour");
    assertField(http.post(T, "{\"content\":1,\"uid\":\"has space\"}"), "invalid-field", "uid");
    assertField(
        http.post("/v1/ns/Not..Valid/traces", "{\"content\":1}"), "invalid-field", "namespace");
    assertField(http.get(T + "?limit=0"), "invalid-field", "limit");
    assertField(http.get(T + "?limit=ten"), "invalid-field", "limit");
    assertField(http.get(T + "?cursor=nonsense"), "invalid-field", "cursor");
    assertField(http.get(T + "?created_from=yesterday"), "invalid-field", "created_from");
    assertField(http.get(T + "?subtree=yes"), "invalid-field", "subtree");
    assertField(http.get(T + "?tags=a"), "invalid-field", "tags");

    assertThat(http.server.loci().lastSeq()).isZero();
  }

  static void assertField(Reply r, String type, String field) {
    assertProblem(r, 400, type);
    assertThat(r.json().get("field").asText()).isEqualTo(field);
  }

  @Test
  void missingRecord_404NamingUid() {
    start();
    for (Reply r :
        List.of(
            http.get(T + "/ghost"),
            send("PATCH", T + "/ghost", "{\"content\":1}", Map.of()),
            send("POST", T + "/ghost/retire", null, Map.of()))) {
      assertProblem(r, 404, "not-found");
      assertThat(r.json().get("field").asText()).isEqualTo("uid");
    }
    Reply revise = send("POST", T + "/ghost/revisions", "{\"content\":1}", Map.of());
    assertProblem(revise, 404, "not-found");
    assertThat(revise.json().get("field").asText()).isEqualTo("predecessor_uid");
    assertProblem(http.get("/v1/nothing-here"), 404, "not-found");
    assertProblem(
        http.send("DELETE", T, Optional.empty(), Optional.empty()), 405, "method-not-allowed");
  }

  @Test
  void wrongContentType_415() {
    start();
    Reply none =
        http.send(
            http.request(T, Optional.empty())
                .POST(HttpRequest.BodyPublishers.ofString("{\"content\":1}"))
                .build());
    Reply text =
        http.send(
            http.request(T, Optional.empty())
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"content\":1}"))
                .build());
    assertProblem(none, 415, "unsupported-media-type");
    assertProblem(text, 415, "unsupported-media-type");
    assertThat(
            http.send(
                    http.request(T, Optional.empty())
                        .header("Content-Type", "application/json; charset=UTF-8")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"content\":1}"))
                        .build())
                .status())
        .isEqualTo(201);
  }

  @Test
  void bodyOverCap_413WithAndWithoutContentLength_andPerPrefixOverride() {
    start(
        ServerConfig.defaults()
            .withBodyLimits(new ServerConfig.BodyLimits(4096, Map.of("/v1/ns/big/", 65_536L))));
    String big = "{\"content\":\"" + "x".repeat(10_000) + "\"}";

    Reply declared = http.post(T, big);
    assertProblem(declared, 413, "body-too-large");
    assertThat(declared.json().get("detail").asText()).contains("4096 bytes");

    Reply chunked =
        http.send(
            http.request(T, Optional.empty())
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(big.getBytes())))
                .build());
    assertThat(chunked.raw().request().headers().firstValue("Content-Length")).isEmpty();
    assertProblem(chunked, 413, "body-too-large");
    assertThat(http.server.loci().lastSeq()).isZero();

    String small = "{\"content\":\"" + "x".repeat(1000) + "\"}";
    Reply smallChunked =
        http.send(
            http.request(T, Optional.empty())
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(small.getBytes())))
                .build());
    assertThat(smallChunked.status()).isEqualTo(201);
    assertThat(http.post("/v1/ns/big/traces", big).status()).isEqualTo(201);
  }

  @Test
  void rateLimited_429WithRetryAfter() {
    start(ServerConfig.defaults().withRateLimit(new ServerConfig.RateLimit(0.5, 3)));
    for (int i = 0; i < 3; i++) {
      assertThat(http.get(T).status()).isEqualTo(200);
    }
    Reply limited = http.get(T);
    assertProblem(limited, 429, "rate-limited");
    assertThat(limited.header("Retry-After")).contains("2");
    assertThat(http.get("/health").status()).isEqualTo(200);
  }

  @Test
  void internalError_500WithIncidentAndNoStackTrace() {
    try (Loci loci = Loci.open(dir)) {
      String cycle =
          "{\"op\":\"add\",\"trace\":{\"uid\":\"a\",\"content\":{},\"predecessor_uid\":\"b\"}}\n"
              + "{\"op\":\"add\",\"trace\":{\"uid\":\"b\",\"content\":{},\"predecessor_uid\":\"a\"}}\n";
      loci.traces().importAdr004(Namespace.of("acme"), new BufferedReader(new StringReader(cycle)));
    }
    RouteSet failing =
        () ->
            List.of(
                Route.of(
                    Route.Method.GET,
                    "/v1/test/boom",
                    Role.READER,
                    Route.NamespaceAccess.NONE,
                    false,
                    ex -> {
                      throw new IllegalStateException("secret detail s3cr3t");
                    }));
    Path config = dir.resolve("loci.toml");
    String legal =
        ConfigFile.addToken(config, Role.LEGAL, List.of(Grant.of("*")), Optional.empty()).token();
    String reader =
        ConfigFile.addToken(config, Role.READER, List.of(Grant.of("*")), Optional.empty()).token();
    http = new ServerFixture(dir, ConfigFile.load(config), List.of(loci -> failing));

    Reply corrupt = http.send("GET", T + "/a/history", Optional.of(legal), Optional.empty());
    assertProblem(corrupt, 500, "internal");
    assertThat(corrupt.body()).doesNotContain("loops", "CorruptData");
    Reply boom = http.send("GET", "/v1/test/boom", Optional.of(reader), Optional.empty());
    assertProblem(boom, 500, "internal");
    assertThat(boom.body()).doesNotContain("s3cr3t", "IllegalState");
    assertThat(boom.json().get("detail").asText()).containsPattern("incident [0-9a-f-]{36}");
  }

  @Test
  void journalUnavailable_is503WithRetryAfter_andHealthStaysReadable() {
    RouteSet refusing =
        () ->
            List.of(
                Route.of(
                    Route.Method.POST,
                    "/v1/test/refused",
                    Role.READER,
                    Route.NamespaceAccess.NONE,
                    false,
                    ex -> {
                      throw new dev.loci.spi.JournalUnavailableException(
                          "database gone", new java.io.IOException("connection refused"));
                    }));
    http = new ServerFixture(dir, ServerConfig.defaults(), List.of(loci -> refusing));

    Reply r = http.send("POST", "/v1/test/refused", Optional.empty(), Optional.empty());

    assertProblem(r, 503, "journal-unavailable");
    assertThat(r.header("Retry-After")).contains("1");
    assertThat(r.json().get("detail").asText()).contains("nothing of this request was written");
    assertThat(http.get("/health").json().get("status").asText()).isEqualTo("ok");
  }

  @Test
  void healthAndMetrics_reportJournalRoutesAndCounts() {
    start();
    http.add("acme", "{\"content\":1}");
    http.get(T + "/ghost");

    JsonNode health = http.get("/health").json();
    assertThat(health.get("status").asText()).isEqualTo("ok");
    assertThat(health.get("journal_seq").asLong()).isEqualTo(1);
    assertThat(health.get("uptime_seconds").asLong()).isNotNegative();

    Reply metrics = http.get("/metrics");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.header("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
    assertThat(metrics.body())
        .contains(
            "loci_http_requests_total{method=\"POST\",route=\"/v1/ns/{ns}/traces\",status=\"201\"} 1",
            "loci_http_requests_total{method=\"GET\",route=\"/v1/ns/{ns}/traces/{uid}\",status=\"404\"} 1",
            "loci_http_request_duration_seconds_bucket{method=\"POST\",route=\"/v1/ns/{ns}/traces\",status=\"201\",le=\"+Inf\"} 1",
            "loci_journal_append_duration_seconds_count 1",
            "loci_journal_batches_total 1",
            "loci_traces 1",
            "loci_journal_seq 1",
            "# TYPE loci_http_request_duration_seconds histogram");
  }

  @Test
  void accessLog_oneJsonLinePerRequest_tokenIdNeverToken() throws Exception {
    Path config = dir.resolve("loci.toml");
    ConfigFile.IssuedToken token =
        ConfigFile.addToken(config, Role.WRITER, List.of(Grant.of("acme")), Optional.of("ingest"));
    start(ConfigFile.load(config));
    http.send("GET", T, Optional.of(token.token()), Optional.empty());
    http.get(T);

    List<JsonNode> lines =
        http.accessLog.stream()
            .map(
                l -> {
                  try {
                    return ServerFixture.MAPPER.readTree(l);
                  } catch (Exception e) {
                    throw new AssertionError(l, e);
                  }
                })
            .toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0).get("route").asText()).isEqualTo("/v1/ns/{ns}/traces");
    assertThat(lines.get(0).get("status").asInt()).isEqualTo(200);
    assertThat(lines.get(0).get("token").asText()).isEqualTo("ingest");
    assertThat(lines.get(0).get("remote").asText()).isEqualTo("127.0.0.1");
    assertThat(lines.get(0).get("duration_ms").asDouble()).isNotNegative();
    assertThat(lines.get(1).get("status").asInt()).isEqualTo(401);
    assertThat(String.join("\n", http.accessLog)).doesNotContain(token.token());
  }

  private Reply send(String method, String path, String json, Map<String, String> headers) {
    HttpRequest.Builder b = http.request(path, Optional.empty());
    headers.forEach(b::header);
    if (json != null) {
      b.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(json));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    return http.send(b.build());
  }
}
