package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Loci;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.DemoCorpus;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.server.ServerFixture.Reply;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recall routes over real HTTP on port 0: ingest then recall with evidence paths, node history,
 * conditional writes (a stale If-Match is 412 and changes nothing), bad input named by field, 404s,
 * node pages, and the embedding provider the builder injects.
 */
class RecallHttpTest {
  private static final String NS = "/v1/ns/acme.contracts";
  private static final String CONTRACT = "01_supply_agreement";

  @TempDir Path dir;
  private ServerFixture http;

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
  }

  private ServerFixture start() {
    http = new ServerFixture(dir);
    return http;
  }

  private Reply send(String method, String path, String json, Map<String, String> headers) {
    HttpRequest.Builder b = http.request(path, Optional.empty());
    headers.forEach(b::header);
    if (json == null) {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      b.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(json));
    }
    return http.send(b.build());
  }

  private Reply put(String path, String json, Map<String, String> headers) {
    return send("PUT", path, json, headers);
  }

  private static JsonNode expect(Reply r, int status) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    return r.json();
  }

  private static void assertField(Reply r, int status, String type, String field) {
    HttpApiTest.assertProblem(r, status, type);
    assertThat(r.json().get("field").asText()).as(r.body()).isEqualTo(field);
  }

  /** The demo contract as an ingest request body. */
  private static String ingestContract() {
    DemoCorpus.Document contract = DemoCorpus.documents().get(0);
    ObjectNode body = ServerFixture.MAPPER.createObjectNode().put("pack", contract.pack());
    ArrayNode docs = body.putArray("documents");
    docs.addObject()
        .put("path", contract.document().path())
        .put("text", contract.document().text());
    return body.toString();
  }

  private static List<String> ids(JsonNode result) {
    List<String> ids = new ArrayList<>();
    result.get("items").forEach(i -> ids.add(i.get("node").get("id").asText()));
    return ids;
  }

  @Test
  void ingestThenRecall_returnsRankedItemsWithEvidencePathsAndActivation() {
    start();
    JsonNode reports = expect(http.post(NS + "/ingest", ingestContract()), 200);
    JsonNode report = reports.get("items").get(0);
    assertThat(report.get("pack").asText()).isEqualTo("markdown:contract");
    assertThat(report.get("namespaces").get(0).asText()).isEqualTo("acme.contracts");
    assertThat(report.get("nodes").asInt()).isPositive();
    assertThat(report.get("written").asInt())
        .isEqualTo(report.get("nodes").asInt() + report.get("edges").asInt());

    JsonNode again = expect(http.post(NS + "/ingest", ingestContract()), 200);
    assertThat(again.get("items").get(0).get("written").asInt()).isZero();

    JsonNode graph =
        expect(
            http.post(
                NS + "/recall",
                "{\"query\":\"What is the penalty for a late delivery?\","
                    + "\"mode\":\"weighted_graph\",\"k\":5}"),
            200);
    assertThat(graph.get("mode").asText()).isEqualTo("weighted_graph");
    assertThat(ids(graph)).contains(CONTRACT + ":3", CONTRACT + ":4");
    JsonNode first = graph.get("items").get(0);
    assertThat(first.get("score").asDouble()).isPositive();
    JsonNode path = first.get("path");
    assertThat(path.get("steps").get(0).get("via").asText()).isEqualTo("seed");
    assertThat(path.get("supporting_evidence").get(0).get("path").asText())
        .isEqualTo(CONTRACT + ".md");
    assertThat(path.get("final_score").asDouble()).isEqualTo(first.get("score").asDouble());
    boolean followedAnEdge = false;
    for (JsonNode item : graph.get("items")) {
      JsonNode steps = item.get("path").get("steps");
      followedAnEdge |= steps.size() > 1 && !steps.get(1).get("via").asText().equals("seed");
    }
    assertThat(followedAnEdge).as("some item is reached through an edge").isTrue();

    JsonNode spreading =
        expect(
            http.post(
                NS + "/recall",
                "{\"query\":\"late delivery penalty\",\"mode\":\"activation_spreading\","
                    + "\"weights\":{\"anomaly\":0.3}}"),
            200);
    assertThat(spreading.get("activation").size()).isPositive();
    assertThat(spreading.get("weights").get("anomaly").asDouble()).isEqualTo(0.3);
    JsonNode lexical =
        expect(
            http.post(NS + "/recall", "{\"query\":\"late delivery\",\"mode\":\"lexical\"}"), 200);
    assertThat(lexical.get("activation").size()).isZero();

    JsonNode stats = expect(http.get(NS + "/graph-stats"), 200);
    assertThat(stats.get("nodes").asInt()).isEqualTo(report.get("nodes").asInt());
    assertThat(stats.get("edge_types").has("exception_to")).isTrue();
  }

  @Test
  void nodeHistory_putTwiceWithIfMatch_headWithItsETag_historyLegalOnly() {
    start();
    Reply v1 =
        put(NS + "/nodes/c:1", "{\"type\":\"clause\",\"content\":\"pay in 30 days\"}", Map.of());
    assertThat(expect(v1, 200).get("version").asInt()).isEqualTo(1);
    assertThat(v1.header("ETag")).contains("\"1\"");

    Reply v2 =
        put(
            NS + "/nodes/c:1",
            "{\"type\":\"clause\",\"content\":\"pay in 45 days\",\"risk\":0.4}",
            Map.of("If-Match", "\"1\""));
    assertThat(expect(v2, 200).get("node").get("risk").asDouble()).isEqualTo(0.4);
    assertThat(v2.header("ETag")).contains("\"2\"");

    Reply got = http.get(NS + "/nodes/c:1");
    assertThat(expect(got, 200).has("history")).isFalse();
    assertThat(got.json().get("node").get("content").asText()).isEqualTo("pay in 45 days");
    assertThat(got.header("ETag")).contains("\"2\"");

    // superseded versions are legal-only, and a server without credentials has no legal caller
    // (the legal read itself is in AuthTest's table)
    Reply history = http.get(NS + "/nodes/c:1?include_history=true");
    assertField(history, 403, "forbidden", "include_history");
    assertThat(history.body()).doesNotContain("pay in 30 days");
    assertThat(
            http.server
                .loci()
                .legalReads()
                .list(dev.loci.NamespaceScope.exactly(dev.loci.Namespace.of("acme.contracts"))))
        .isEmpty();

    Reply cached = send("GET", NS + "/nodes/c:1", null, Map.of("If-None-Match", "\"2\""));
    assertThat(cached.status()).isEqualTo(304);
    assertThat(cached.body()).isEmpty();
  }

  @Test
  void staleIfMatch_is412_andChangesNothing_forNodesAndEdges() {
    start();
    put(NS + "/nodes/a", "{\"type\":\"clause\",\"content\":\"alpha\"}", Map.of());
    put(NS + "/nodes/b", "{\"type\":\"clause\",\"content\":\"beta\"}", Map.of());
    put(NS + "/nodes/a", "{\"type\":\"clause\",\"content\":\"alpha two\"}", Map.of());

    Reply stalePut =
        put(
            NS + "/nodes/a",
            "{\"type\":\"clause\",\"content\":\"lost\"}",
            Map.of("If-Match", "\"1\""));
    assertField(stalePut, 412, "precondition-failed", "If-Match");
    assertThat(stalePut.json().get("detail").asText()).contains("version 2", "expected 1");
    assertField(
        send("DELETE", NS + "/nodes/a", null, Map.of("If-Match", "\"1\"")),
        412,
        "precondition-failed",
        "If-Match");
    assertField(
        send("DELETE", NS + "/nodes/a", null, Map.of("If-Match", "W/\"2\"")),
        412,
        "precondition-failed",
        "If-Match");
    assertField(
        put(
            NS + "/nodes/new",
            "{\"type\":\"clause\",\"content\":\"x\"}",
            Map.of("If-Match", "\"1\"")),
        412,
        "precondition-failed",
        "If-Match");
    assertField(
        send("DELETE", NS + "/nodes/a", null, Map.of("If-Match", "nope")),
        400,
        "invalid-field",
        "If-Match");
    assertThat(http.get(NS + "/nodes/a").json().get("node").get("content").asText())
        .isEqualTo("alpha two");
    assertThat(http.get(NS + "/nodes/new").status()).isEqualTo(404);

    String edge = "{\"from\":\"a\",\"edge_type\":\"references\",\"to\":\"b\",\"weight\":0.5}";
    Reply e1 = put(NS + "/edges", edge, Map.of());
    assertThat(e1.header("ETag")).contains("\"1\"");
    String key = NS + "/edges?from=a&edge_type=references&to=b";
    assertField(
        put(NS + "/edges", edge.replace("0.5", "0.9"), Map.of("If-Match", "\"7\"")),
        412,
        "precondition-failed",
        "If-Match");
    assertThat(http.get(key).json().get("edge").get("weight").asDouble()).isEqualTo(0.5);
    Reply removed = send("DELETE", key, null, Map.of("If-Match", "\"1\""));
    assertThat(expect(removed, 200).get("removed").asBoolean()).isTrue();
    assertThat(expect(http.get(NS + "/nodes/a/edges"), 200).get("items")).isEmpty();

    Reply deleted = send("DELETE", NS + "/nodes/a", null, Map.of("If-Match", "\"2\""));
    assertThat(expect(deleted, 200).get("version").asInt()).isEqualTo(3);
    assertThat(deleted.json().get("removed").asBoolean()).isTrue();
  }

  @Test
  void ingest_2000LineSection_boundedEdges_andADocumentOverTheByteLimitIs413WritingNothing() {
    start();
    StringBuilder doc = new StringBuilder("# Sec\\n\\n");
    for (int i = 1; i <= 2000; i++) {
      doc.append(i).append(". Item ").append(i).append(" ships.\\n\\n");
    }
    JsonNode report =
        expect(
                http.post(
                    NS + "/ingest",
                    "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"d.md\",\"text\":\""
                        + doc
                        + "\"}]}"),
                200)
            .get("items")
            .get(0);
    assertThat(report.get("nodes").asInt()).isEqualTo(2000);
    assertThat(report.get("edges").asInt()).isLessThan(36_000); // a clique wrote 2,000,999

    long seq = http.server.loci().lastSeq();
    String big = "x".repeat((8 << 20) + 1);
    Reply tooBig =
        http.post(
            NS + "/ingest",
            "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"big.md\",\"text\":\""
                + big
                + "\"}]}");
    HttpApiTest.assertProblem(tooBig, 413, "limit-exceeded");
    assertThat(tooBig.json().get("field").asText()).isEqualTo("documents[0].text");
    assertThat(tooBig.json().get("detail").asText()).contains("ingest_bytes_per_document");
    assertThat(http.server.loci().lastSeq()).isEqualTo(seq);
  }

  @Test
  void recall_queryWithMoreThan1024DistinctTerms_isAnsweredInEveryMode() {
    start();
    expect(http.post(NS + "/ingest", ingestContract()), 200);
    StringBuilder query = new StringBuilder("What is the penalty for a late delivery");
    for (int i = 0; i < 3000; i++) {
      query.append(" zq").append(Integer.toString(i, 36)).append("x");
    }
    for (String mode :
        List.of(
            "lexical",
            "embedding",
            "hybrid",
            "structure_only",
            "weighted_graph",
            "activation_spreading",
            "ppr")) {
      Reply r =
          http.post(
              NS + "/recall", "{\"query\":\"" + query + "\",\"mode\":\"" + mode + "\",\"k\":3}");
      assertThat(r.status()).as(mode + ": " + r.body()).isEqualTo(200);
      if (!mode.equals("embedding") && !mode.equals("structure_only")) {
        assertThat(r.json().get("items")).as(mode).isNotEmpty();
      }
    }
  }

  @Test
  void badInput_is400NamingTheField_andChangesNothing() {
    start();
    put(NS + "/nodes/a", "{\"type\":\"clause\",\"content\":\"alpha\"}", Map.of());
    long seq = http.server.loci().lastSeq();

    assertField(
        put(NS + "/nodes/b", "{\"type\":\"clause\",\"content\":\"b\",\"risk\":2}", Map.of()),
        400,
        "invalid-field",
        "risk");
    assertField(
        put(NS + "/nodes/b", "{\"type\":\"Clause!\",\"content\":\"b\"}", Map.of()),
        400,
        "invalid-field",
        "type");
    assertField(
        put(NS + "/nodes/b", "{\"type\":\"clause\",\"content\":\"b\",\"id\":\"c\"}", Map.of()),
        400,
        "invalid-field",
        "id");
    assertField(put(NS + "/nodes/b", "{bad", Map.of()), 400, "malformed-json", "body");
    assertField(
        put(
            NS + "/edges",
            "{\"from\":\"a\",\"edge_type\":\"references\",\"to\":\"ghost\"}",
            Map.of()),
        400,
        "invalid-field",
        "to");
    assertField(
        http.post(NS + "/recall", "{\"query\":\"alpha\",\"k\":0}"), 400, "invalid-field", "k");
    assertField(
        http.post(NS + "/recall", "{\"query\":\"alpha\",\"mode\":\"psychic\"}"),
        400,
        "invalid-field",
        "mode");
    assertField(
        http.post(NS + "/recall", "{\"query\":\"alpha\",\"weights\":{\"semantic\":-1}}"),
        400,
        "invalid-field",
        "weights.semantic");
    assertField(http.post(NS + "/recall", "{\"k\":3}"), 400, "invalid-field", "query");
    assertField(
        http.post(NS + "/ingest", "{\"pack\":\"poem\",\"documents\":[]}"),
        400,
        "invalid-field",
        "pack");
    assertField(
        http.post(
            NS + "/ingest",
            "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"a.md\",\"text\":\"1. x\"},"
                + "{\"path\":\"b.md\"}]}"),
        400,
        "invalid-field",
        "documents[1].text");
    assertField(
        http.post(
            NS + "/ingest",
            "{\"pack\":\"conversation\",\"documents\":[{\"path\":\"c.json\",\"text\":\"{no\"}]}"),
        400,
        "invalid-field",
        "documents[0].path");
    assertField(http.get(NS + "/nodes?limit=0"), 400, "invalid-field", "limit");
    assertField(http.get(NS + "/nodes?cursor=zzz"), 400, "invalid-field", "cursor");
    assertField(http.get(NS + "/nodes/a?history=true"), 400, "invalid-field", "history");
    assertField(http.get(NS + "/edges?from=a&edge_type=references"), 400, "invalid-field", "to");
    HttpApiTest.assertProblem(
        http.send("POST", NS + "/recall", Optional.empty(), Optional.empty()), // no Content-Type
        415,
        "unsupported-media-type");

    assertThat(http.server.loci().lastSeq()).isEqualTo(seq);
  }

  @Test
  void missingRecords_are404NamingTheField() {
    start();
    put(NS + "/nodes/a", "{\"type\":\"clause\",\"content\":\"alpha\"}", Map.of());
    put(NS + "/nodes/gone", "{\"type\":\"clause\",\"content\":\"soon gone\"}", Map.of());
    expect(send("DELETE", NS + "/nodes/gone", null, Map.of()), 200);

    assertField(http.get(NS + "/nodes/ghost"), 404, "not-found", "id");
    assertField(http.get(NS + "/nodes/gone"), 404, "not-found", "id");
    assertThat(http.get(NS + "/nodes/gone").json().get("detail").asText()).contains("removed");
    assertField(http.get(NS + "/nodes/gone?include_history=true"), 404, "not-found", "id");
    assertField(http.get(NS + "/nodes/ghost/edges"), 404, "not-found", "id");
    assertField(send("DELETE", NS + "/nodes/ghost", null, Map.of()), 404, "not-found", "id");
    assertField(
        http.get(NS + "/edges?from=a&edge_type=references&to=gone"), 404, "not-found", "edge");
    assertField(
        send("DELETE", NS + "/edges?from=a&edge_type=references&to=gone", null, Map.of()),
        404,
        "not-found",
        "edge");
    assertThat(expect(http.get("/v1/ns/empty/graph-stats"), 200).get("nodes").asInt()).isZero();
  }

  @Test
  void nodes_pageThroughWithTheOpaqueCursor_idsThatNeedEncodingWork() {
    start();
    List<String> ids = List.of("a b", "c:2", "d%e", "é", "f/g");
    for (String id : ids) {
      String path =
          NS + "/nodes/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
      expect(put(path, "{\"type\":\"note\",\"content\":\"text " + id + "\"}", Map.of()), 200);
    }
    List<String> seen = new ArrayList<>();
    Optional<String> cursor = Optional.empty();
    int pages = 0;
    do {
      JsonNode page =
          expect(http.get(NS + "/nodes?limit=2" + cursor.map(c -> "&cursor=" + c).orElse("")), 200);
      page.get("items").forEach(i -> seen.add(i.get("node").get("id").asText()));
      JsonNode next = page.get("next_cursor");
      cursor = next.isNull() ? Optional.empty() : Optional.of(next.asText());
      pages++;
    } while (cursor.isPresent());
    assertThat(seen).containsExactlyElementsOf(ids);
    assertThat(pages).isEqualTo(3);
  }

  @Test
  void builderEmbeddings_isTheProviderRecallUses() {
    AtomicInteger queries = new AtomicInteger();
    EmbeddingProvider hashing = HashingEmbeddingProvider.create();
    EmbeddingProvider counting =
        new EmbeddingProvider() {
          @Override
          public String modelId() {
            return "counting-" + hashing.modelId();
          }

          @Override
          public int dimension() {
            return hashing.dimension();
          }

          @Override
          public List<float[]> embedDocuments(List<String> texts) {
            return hashing.embedDocuments(texts);
          }

          @Override
          public float[] embedQuery(String text) {
            queries.incrementAndGet();
            return hashing.embedQuery(text);
          }
        };
    http = new ServerFixture(dir, ServerConfig.defaults(), List.of(), b -> b.embeddings(counting));
    put(NS + "/nodes/a", "{\"type\":\"clause\",\"content\":\"alpha\"}", Map.of());

    expect(http.post(NS + "/recall", "{\"query\":\"alpha\",\"mode\":\"embedding\"}"), 200);

    assertThat(queries.get()).isEqualTo(1);
  }

  @Test
  void builderEmbeddingsOpener_runsInTheLockedDataDir_andTheServerClosesWhatItOpened() {
    Path cache = dir.resolve("cache").resolve("vectors.bin");
    AtomicInteger opens = new AtomicInteger();
    http =
        new ServerFixture(
            dir,
            ServerConfig.defaults(),
            List.of(),
            b ->
                b.embeddings(
                    loci -> {
                      opens.incrementAndGet();
                      assertThat(loci.dataDir()).isEqualTo(dir);
                      return CachingEmbeddingProvider.open(
                          HashingEmbeddingProvider.create(), cache);
                    }));
    put(NS + "/nodes/a", "{\"type\":\"clause\",\"content\":\"alpha\"}", Map.of());
    expect(http.post(NS + "/recall", "{\"query\":\"alpha\",\"mode\":\"embedding\"}"), 200);
    http.close();
    http = null;

    assertThat(opens.get()).isEqualTo(1);
    // the server closed the cache (released and flushed): it opens again and holds alpha's vector
    try (CachingEmbeddingProvider again =
        CachingEmbeddingProvider.open(HashingEmbeddingProvider.create(), cache)) {
      again.embedDocuments(List.of("alpha"));
      assertThat(again.hits()).isEqualTo(1);
      assertThat(again.misses()).isZero();
    }
  }

  @Test
  void builderEmbeddingsOpener_isNotCalledWhenTheServerRefusesToStart() {
    AtomicInteger opens = new AtomicInteger();
    LociServer.Builder b =
        LociServer.builder(Loci.builder().dataDir(dir.resolve("data")))
            .config(ServerConfig.defaults().withHost("0.0.0.0").withPort(0))
            .embeddings(
                loci -> {
                  opens.incrementAndGet();
                  return HashingEmbeddingProvider.create();
                });

    assertThatThrownBy(b::start).isInstanceOf(ConfigException.class);
    assertThat(opens.get()).isZero();
    assertThat(dir.resolve("data")).doesNotExist();
  }
}
