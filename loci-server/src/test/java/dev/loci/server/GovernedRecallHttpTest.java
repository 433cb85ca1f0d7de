package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Reviewer;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.server.ServerFixture.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Governed records in {@code POST recall}: in the graph the moment their write is acknowledged, and
 * never ranked above their active successor.
 */
class GovernedRecallHttpTest {
  private static final Namespace NS = Namespace.of("acme.alice");
  private static final Reviewer REVIEWER = new Reviewer("dpo");

  @TempDir Path dir;

  private static List<String> recalled(ServerFixture http, String query) {
    Reply r =
        http.post(
            "/v1/ns/" + NS.value() + "/recall",
            "{\"query\":\"" + query + "\",\"mode\":\"lexical\",\"k\":10}");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    List<String> served = new ArrayList<>();
    for (JsonNode item : r.json().get("items")) {
      served.add(item.get("node").get("id").asText());
    }
    return served;
  }

  private static JsonNode expect(Reply r, int status) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    return r.json();
  }

  @Test
  void aRecallRightAfterAPromoteACaptureOrASupersedeFindsIt_withoutAnySync() {
    try (ServerFixture http =
        new ServerFixture(
            dir,
            ServerConfig.defaults(),
            List.of(),
            b -> b.governedRecallEvery(java.time.Duration.ZERO))) {
      String g = "/v1/ns/" + NS.value();
      String id =
          expect(
                  http.post(
                      g + "/memories",
                      "{\"type\":\"preference\",\"content\":\"Alice prefers oolong tea\"}"),
                  201)
              .get("memory")
              .get("id")
              .asText();
      expect(http.post(g + "/memories/" + id + "/promote", ""), 200);
      assertThat(recalled(http, "oolong tea")).containsExactly("memory:" + id);
      RecallMemory recall = RecallMemory.of(http.server.loci());
      assertThat(recall.node(NS, "memory:" + id).orElseThrow().attributes())
          .containsEntry("record_status", "active");

      JsonNode captured =
          expect(
              http.post(
                  g + "/interactions",
                  "{\"text\":\"We decided to use titanium hinges for the lid.\",\"speaker\":\"bob\"}"),
              201);
      List<String> proposed = new ArrayList<>();
      for (JsonNode c : captured.get("candidates")) {
        proposed.add(c.get("kind").asText() + ":" + c.get("id").asText());
      }
      assertThat(proposed).isNotEmpty();
      assertThat(recalled(http, "titanium hinges lid")).containsAnyElementsOf(proposed);

      String successor =
          expect(
                  http.post(
                      g + "/memories",
                      "{\"type\":\"preference\",\"content\":\"Alice prefers green tea\","
                          + "\"status\":\"active\"}"),
                  201)
              .get("memory")
              .get("id")
              .asText();
      expect(
          http.post(g + "/memories/" + id + "/supersede", "{\"by\":\"" + successor + "\"}"), 200);
      assertThat(recall.node(NS, "memory:" + id).orElseThrow().attributes())
          .containsEntry("record_status", "superseded");
      List<String> served = recalled(http, "Alice prefers tea");
      assertThat(served.indexOf("memory:" + successor))
          .isNotNegative()
          .isLessThan(served.indexOf("memory:" + id));
    }
  }

  @Test
  void defaultRecallRanksASupersededMemoryAfterItsActiveSuccessor() {
    try (ServerFixture http = new ServerFixture(dir)) {
      Loci loci = http.server.loci();
      GovernedMemory gov = GovernedMemory.of(loci);
      Memory old =
          gov.add(
                  NS,
                  MemoryDraft.of(
                      MemoryType.EPISODIC, "Team lunch at the tea house with the tea tasting", "a"),
                  REVIEWER)
              .memory();
      Memory successor =
          gov.add(
                  NS,
                  MemoryDraft.of(MemoryType.EPISODIC, "Team lunch moved to the pizza place", "a"),
                  REVIEWER)
              .memory();
      gov.supersede(NS, old.id(), successor.id(), REVIEWER);
      RecallMemory recall = RecallMemory.of(loci);
      GovernedRecall.of(gov, GovernedEntities.of(loci), recall).sync(NS);
      String query = "tea house tea tasting team lunch";

      // by its words alone (no governed scoring) the superseded record ranks first
      List<String> plain =
          recall
              .recall(NS, RecallQuery.builder(query, RecallMode.LEXICAL).k(10).build())
              .items()
              .stream()
              .map(i -> i.node().id())
              .toList();
      assertThat(plain.indexOf("memory:" + old.id()))
          .isNotNegative()
          .isLessThan(plain.indexOf("memory:" + successor.id()));

      List<String> served = recalled(http, query);
      assertThat(served).contains("memory:" + successor.id());
      assertThat(served.indexOf("memory:" + old.id()))
          .satisfiesAnyOf(
              i -> assertThat(i).isEqualTo(-1),
              i -> assertThat(i).isGreaterThan(served.indexOf("memory:" + successor.id())));
    }
  }
}
