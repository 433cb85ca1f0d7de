package dev.loci.server;

import static dev.loci.server.HttpApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.recall.IngestLimits;
import dev.loci.recall.RecallMode;
import dev.loci.server.ServerFixture.Reply;
import dev.loci.server.spi.RouteSet;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14's black-box findings replayed over real HTTP, raw sockets where the framing matters:
 * each test fails if its finding comes back. Findings with their own regression tests elsewhere:
 * the ingest clique ({@code RecallHttpTest.ingest_2000LineSection_boundedEdges_...}), the full disk
 * ({@code FullDiskHttpTest}), duplicate token hashes and the logged reload ({@code
 * CredentialReloadTest}), linear-time redaction ({@code RedactionTest} in loci-pathway).
 */
class HostileClientTest {
  private static final String NS = "/v1/ns/hostile";
  private static final RequestLimits LIMITS =
      new RequestLimits(8, 100_000, 50, 4, new IngestLimits(1 << 20, 10, 100, 1_000), 2_000, 1_000);

  @TempDir Path dir;
  private ServerFixture http;

  private ServerFixture start(RequestLimits limits) {
    http =
        new ServerFixture(
            dir,
            ServerConfig.defaults()
                .withLimits(limits)
                .withBodyLimits(new ServerConfig.BodyLimits(65_536, java.util.Map.of())));
    return http;
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
  }

  private long seq() {
    return http.server.loci().lastSeq();
  }

  private RawHttp raw() {
    return new RawHttp(http.server.port(), 30_000);
  }

  @Test
  void shortBody_stalled_is408AfterTheIdleLimit_notA500() {
    start(LIMITS);
    try (RawHttp c = raw()) {
      String r =
          c.send(RawHttp.post(NS + "/traces", "Content-Length: 100\r\n"))
              .send("{\"content\":")
              .response();
      assertThat(RawHttp.status(r)).as(r).isEqualTo(408);
      assertThat(r).contains("body-timeout").doesNotContain("Exception");
    }
    assertThat(seq()).isZero();
  }

  @Test
  void shortBody_connectionHalfClosed_is400() {
    start(LIMITS);
    try (RawHttp c = raw()) {
      String r =
          c.send(RawHttp.post(NS + "/traces", "Content-Length: 100\r\n"))
              .send("{\"content\":")
              .halfClose()
              .response();
      assertThat(RawHttp.status(r)).as(r).isEqualTo(400);
      assertThat(r).contains("incomplete-body").contains("Content-Length 100");
    }
    assertThat(seq()).isZero();
  }

  @Test
  void malformedChunkedEncoding_is400() {
    start(LIMITS);
    try (RawHttp c = raw()) {
      String r =
          c.send(RawHttp.post(NS + "/traces", "Transfer-Encoding: chunked\r\n"))
              .send("ZZ\r\n{\"content\":{}}\r\n0\r\n\r\n")
              .response();
      assertThat(RawHttp.status(r)).as(r).isEqualTo(400);
    }
    assertThat(seq()).isZero();
  }

  @Test
  void declaredLengthOverTheCap_noBodySent_is413WithoutWaitingForTheBody() {
    // the idle limit is a minute, so an answer within 20 s did not wait for the body
    start(new RequestLimits(8, 1_000, 50, 4, IngestLimits.defaults(), 60_000, 0));
    try (RawHttp c = raw()) {
      c.send(RawHttp.post(NS + "/traces", "Content-Length: 999999999\r\n"));
      assertThat(c.answered(20_000)).isTrue();
      String r = c.response();
      assertThat(RawHttp.status(r)).as(r).isEqualTo(413);
      assertThat(r).contains("65536 bytes");
    }
  }

  @Test
  void slowClient_belowTheMinimumBodyRate_is408() {
    start(LIMITS);
    String body = "{\"content\":{\"a\":\"" + "x".repeat(400) + "\"}}";
    try (RawHttp c = raw()) {
      c.send(RawHttp.post(NS + "/traces", "Content-Length: " + body.length() + "\r\n"));
      int sent = 0;
      while (sent < body.length() && !c.answered(200)) { // 5 bytes a second, under 1,000
        c.send(body.substring(sent, sent + 1));
        sent++;
      }
      assertThat(sent).isLessThan(body.length());
      String r = c.response();
      assertThat(RawHttp.status(r)).as(r).isEqualTo(408);
    }
    assertThat(seq()).isZero();
  }

  @Test
  void busyServer_pausesBetweenReadsOfABody_isNot408() {
    // The handler reads 10 bytes, then the server is busy for 1.5 s (a saturated machine, a
    // garbage collection) before it reads the rest, all buffered by then. Jetty's rate counted
    // that pause against the client: at 1,000 B/s it asked for 1,500 bytes, found 100, and
    // answered 408 to a client that had sent everything at once.
    RouteSet pausingReader =
        () ->
            java.util.List.of(
                dev.loci.server.spi.Route.of(
                    dev.loci.server.spi.Route.Method.POST,
                    "/v1/pausing-reader",
                    Role.READER,
                    dev.loci.server.spi.Route.NamespaceAccess.NONE,
                    true,
                    ex -> {
                      try (java.io.InputStream in = ex.bodyStream()) {
                        byte[] head = in.readNBytes(10);
                        Thread.sleep(1_500);
                        byte[] rest = in.readAllBytes();
                        ex.json(200, "{\"bytes\":" + (head.length + rest.length) + "}");
                      } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }));
    http =
        new ServerFixture(
            dir,
            ServerConfig.defaults().withLimits(LIMITS),
            java.util.List.of(loci -> pausingReader));
    Reply r = http.post("/v1/pausing-reader", "{\"a\":\"" + "x".repeat(92) + "\"}");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.json().get("bytes").asInt()).isEqualTo(100);
  }

  @Test
  void tags_atTheLimit_201_andOnePast_422WritingNothing() {
    start(LIMITS);
    assertThat(
            http.post(NS + "/traces", "{\"content\":{},\"tags\":[\"a\",\"b\",\"c\",\"d\"]}")
                .status())
        .isEqualTo(201);
    long seq = seq();
    Reply r =
        http.post(NS + "/traces", "{\"content\":{},\"tags\":[\"a\",\"b\",\"c\",\"d\",\"e\"]}");
    assertProblem(r, 422, "limit-exceeded");
    assertThat(r.json().get("detail").asText()).contains("limits.tags_per_trace");
    assertThat(seq()).isEqualTo(seq);
  }

  @Test
  void nestingAndListSize_atTheLimit_201_andOnePast_422WritingNothing() {
    start(LIMITS);
    String deep7 = "[".repeat(7) + "]".repeat(7); // inside the body's object: 8 levels
    assertThat(http.post(NS + "/traces", "{\"content\":" + deep7 + "}").status()).isEqualTo(201);
    String items50 =
        IntStream.range(0, 50).mapToObj(Integer::toString).collect(Collectors.joining(","));
    assertThat(http.post(NS + "/traces", "{\"content\":[" + items50 + "]}").status())
        .isEqualTo(201);
    long seq = seq();
    Reply deep = http.post(NS + "/traces", "{\"content\":[" + deep7 + "]}");
    assertProblem(deep, 422, "limit-exceeded");
    assertThat(deep.json().get("field").asText()).isEqualTo("content");
    assertThat(deep.json().get("detail").asText()).contains("limits.json_depth (8)");
    Reply many = http.post(NS + "/traces", "{\"content\":[" + items50 + ",50]}");
    assertProblem(many, 422, "limit-exceeded");
    assertThat(many.json().get("detail").asText()).contains("limits.json_array_items (50)");
    assertThat(seq()).isEqualTo(seq);
  }

  @Test
  void ingest_overTheUnitLimit_422NamingIt_writingNothing() {
    start(LIMITS);
    String text =
        IntStream.rangeClosed(1, 101)
            .mapToObj(i -> i + ". Item " + i + " ships.\\n\\n")
            .collect(Collectors.joining());
    Reply r =
        http.post(
            NS + "/ingest",
            "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"d.md\",\"text\":\"# S\\n\\n"
                + text
                + "\"}]}");
    assertProblem(r, 422, "limit-exceeded");
    assertThat(r.json().get("detail").asText()).contains("ingest_units_per_document");
    assertThat(seq()).isZero();
  }

  @Test
  void nestedDuplicateMembers_400LikeTopLevelOnes() {
    start(LIMITS);
    assertProblem(
        http.post(NS + "/traces", "{\"content\":{\"x\":{\"a\":1,\"a\":2}}}"),
        400,
        "malformed-json");
    assertProblem(
        http.post(NS + "/traces", "{\"content\":{},\"content\":{}}"), 400, "malformed-json");
    assertThat(seq()).isZero();
  }

  @Test
  void malformedJson_detailGivesLineAndColumn_neverAJavaSetting() {
    start(LIMITS);
    Reply r = http.post(NS + "/traces", "{\"content\":{\"a\":1}");
    assertProblem(r, 400, "malformed-json");
    assertThat(r.json().get("detail").asText())
        .contains("line 1, column")
        .doesNotContain("`", "StreamReadFeature", "Source:");
  }

  @Test
  void pathwayProblems_nameTheFieldAndJsonType_neverAJavaClass() {
    start(LIMITS);
    String base =
        "\"task_class\":\"t\",\"signal_class\":\"LOOPING\",\"final_verdict\":\"accepted\"";
    Reply number = http.post(NS + "/pathway-traces", "{" + base + ",\"file_path\":5}");
    assertProblem(number, 400, "invalid-field");
    assertThat(number.json().get("field").asText()).isEqualTo("file_path");
    assertThat(number.json().get("detail").asText()).contains("expected a string");
    Reply list =
        http.post(
            NS + "/pathway-traces",
            "{" + base + ",\"file_path\":\"a\",\"ladder_attempts\":\"no\"}");
    assertProblem(list, 400, "invalid-field");
    assertThat(list.json().get("detail").asText())
        .contains("ladder_attempts: expected an array, found a string")
        .doesNotContain("java.", "dev.loci", "`");
    assertThat(seq()).isZero();
  }

  @Test
  void nodeIds_blankPaddedOrDotSegments_400_slashAllowed() {
    start(LIMITS);
    for (String id : new String[] {"%20", "..", ".", "a%2F..%2Fb", "%20x"}) {
      assertProblem(
          http.send(
              "PUT",
              NS + "/nodes/" + id,
              Optional.empty(),
              Optional.of("{\"type\":\"note\",\"content\":\"x\"}")),
          400,
          "invalid-field");
    }
    Reply edge =
        http.send(
            "PUT",
            NS + "/edges",
            Optional.empty(),
            Optional.of("{\"from\":\"a\",\"to\":\"..\",\"edge_type\":\"rel\"}"));
    assertProblem(edge, 400, "invalid-field");
    assertThat(edge.json().get("field").asText()).isEqualTo("to");
    assertThat(seq()).isZero();
    Reply slash =
        http.send(
            "PUT",
            NS + "/nodes/a%2Fb",
            Optional.empty(),
            Optional.of("{\"type\":\"note\",\"content\":\"x\"}"));
    assertThat(slash.status()).as(slash.body()).isEqualTo(200);
  }

  @Test
  void recall_moreThan1024DistinctTerms_answeredInEveryMode() {
    start(LIMITS);
    String query =
        IntStream.range(0, 1_500).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
    for (RecallMode mode : RecallMode.values()) {
      Reply r =
          http.post(
              NS + "/recall", "{\"query\":\"" + query + "\",\"mode\":\"" + mode.wireName() + "\"}");
      assertThat(r.status()).as(mode + ": " + r.body()).isEqualTo(200);
    }
  }

  @Test
  void recall_atTheQueryTermLimit_isAnswered_andOneWordPastIs422NamingTheLimit() {
    start(LIMITS.withRecallQueryTerms(1_500));
    String words =
        IntStream.range(0, 1_500).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
    // repeats and case do not count: "W0 w0" is one word
    Reply at = http.post(NS + "/recall", "{\"query\":\"" + words + " W0 w1\"}");
    assertThat(at.status()).as(at.body()).isEqualTo(200);
    Reply past = http.post(NS + "/recall", "{\"query\":\"" + words + " w1500\"}");
    assertThat(past.status()).as(past.body()).isEqualTo(422);
    assertThat(past.json().get("type").asText()).endsWith("limit-exceeded");
    assertThat(past.json().get("field").asText()).isEqualTo("query");
    assertThat(past.json().get("detail").asText()).contains("recall_query_terms");
  }

  @Test
  void putTrace_differentContent_saysTheExistingTraceWasKept() {
    start(LIMITS);
    assertThat(
            http.send(
                    "PUT",
                    NS + "/traces/u1",
                    Optional.empty(),
                    Optional.of("{\"content\":{\"a\":1}}"))
                .status())
        .isEqualTo(201);
    Reply again =
        http.send(
            "PUT", NS + "/traces/u1", Optional.empty(), Optional.of("{\"content\":{\"a\":2}}"));
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.header("Loci-Kept")).contains("existing");
    assertThat(again.header("Loci-Content-Differs")).contains("true");
    assertThat(again.json().get("content").get("a").asInt()).isEqualTo(1);
  }

  @Test
  void conditionalRevise_twiceWithTheSameEtag_secondIs412() {
    start(LIMITS);
    Reply created =
        http.send("PUT", NS + "/traces/r1", Optional.empty(), Optional.of("{\"content\":{}}"));
    String etag = created.header("ETag").orElseThrow();
    String path = NS + "/traces/r1/revisions";
    java.util.function.Supplier<Reply> revise =
        () ->
            http.send(
                http.request(path, Optional.empty())
                    .header("Content-Type", "application/json")
                    .header("If-Match", etag)
                    .POST(
                        java.net.http.HttpRequest.BodyPublishers.ofString(
                            "{\"content\":{\"v\":2}}"))
                    .build());
    assertThat(revise.get().status()).isEqualTo(201);
    assertProblem(revise.get(), 412, "precondition-failed");
  }

  @Test
  void committedWrite_clientGoneBeforeTheAnswer_stillLeavesAnAccessLogLine() throws Exception {
    start(LIMITS);
    String body = "{\"content\":{\"gone\":true}}";
    try (RawHttp c = raw()) {
      c.send(RawHttp.post(NS + "/traces", "Content-Length: " + body.length() + "\r\n") + body);
    } // closed without reading the answer
    for (int i = 0;
        i < 100 && http.accessLog.stream().noneMatch(l -> l.contains("\"status\":201"));
        i++) {
      Thread.sleep(100);
    }
    assertThat(seq()).isEqualTo(1);
    assertThat(http.accessLog)
        .anyMatch(l -> l.contains("\"POST\"") && l.contains("\"status\":201"));
  }
}
