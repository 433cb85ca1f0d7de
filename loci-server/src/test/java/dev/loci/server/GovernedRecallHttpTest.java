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

/** {@code POST recall} with its default weights never ranks a superseded record first. */
class GovernedRecallHttpTest {
  private static final Namespace NS = Namespace.of("acme.alice");
  private static final Reviewer REVIEWER = new Reviewer("dpo");

  @TempDir Path dir;

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

      Reply r =
          http.post(
              "/v1/ns/" + NS.value() + "/recall",
              "{\"query\":\"" + query + "\",\"mode\":\"lexical\",\"k\":10}");
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      List<String> served = new ArrayList<>();
      for (JsonNode item : r.json().get("items")) {
        served.add(item.get("node").get("id").asText());
      }
      assertThat(served).contains("memory:" + successor.id());
      assertThat(served.indexOf("memory:" + old.id()))
          .satisfiesAnyOf(
              i -> assertThat(i).isEqualTo(-1),
              i -> assertThat(i).isGreaterThan(served.indexOf("memory:" + successor.id())));
    }
  }
}
