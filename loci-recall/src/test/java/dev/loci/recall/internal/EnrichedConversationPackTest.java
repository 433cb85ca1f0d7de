package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnrichedConversationPackTest {
  private static final SourceDocument DOC =
      new SourceDocument(
          "c.json",
          """
          {"conversation": {
            "session_1_date_time": "8 May, 2023",
            "session_1": [
              {"speaker": "Ada", "dia_id": "D1:1", "text": "My pottery class starts today."},
              {"speaker": "Bo", "dia_id": "D1:2", "text": "Pottery sounds calming."},
              {"speaker": "Ada", "dia_id": "D1:3", "text": "It is, and the teacher is kind."}],
            "session_2_date_time": "9 May, 2023",
            "session_2": [
              {"speaker": "Bo", "dia_id": "D2:1", "text": "How was pottery and the teacher?"}]}}
          """);

  @Test
  void read_datedWithWindow_addsTheDateAndTheTurnBeforeInTheSameSessionAsContext() {
    Ingestion in = new EnrichedConversationPack(true, 1).read(DOC);

    List<MemoryNode> nodes = in.graphs().get(0).nodes();
    // the turn before is context, indexed and embedded after the turn, not the turn's content;
    // the turn after is not (it is about the reply)
    assertThat(nodes.get(1).content()).isEqualTo("Bo: Pottery sounds calming. [8 May, 2023]");
    assertThat(nodes.get(1).attributes())
        .containsEntry(MemoryNode.INDEX_CONTEXT, "Ada: My pottery class starts today.");
    assertThat(RecallIndexes.embeddedText(nodes.get(1)))
        .isEqualTo(
            "Bo: Pottery sounds calming. [8 May, 2023] | Ada: My pottery class starts today.");
    // a context written before 2026-11-27 began with "| ": its vector's text is the same as ever
    MemoryNode older =
        nodes
            .get(1)
            .withContent(
                nodes.get(1).content(),
                java.util.Map.of(
                    MemoryNode.INDEX_CONTEXT, "| Ada: My pottery class starts today."));
    assertThat(RecallIndexes.embeddedText(older))
        .isEqualTo(RecallIndexes.embeddedText(nodes.get(1)));
    assertThat(nodes.get(0).attributes()).doesNotContainKey(MemoryNode.INDEX_CONTEXT);
    assertThat(nodes.get(3).attributes())
        .as("a session's first turn has no context from the session before")
        .doesNotContainKey(MemoryNode.INDEX_CONTEXT);
    assertThat(nodes.get(3).content())
        .isEqualTo("Bo: How was pottery and the teacher? [9 May, 2023]");
    // the date as written has every word of "8 May 2023": nothing more to index
    assertThat(nodes.get(0).attributes()).doesNotContainKey(MemoryNode.INDEX_TERMS);
    assertThat(new EnrichedConversationPack(true, 1).label()).isEqualTo("dated+window1");
  }

  @Test
  void read_dated_indexesTheWordsOfTheDateInOneFormThatTheFilesFormatLacks() {
    // LoCoMo's form with a time, ISO with a time, month first, and a string with no date in it
    List<String> written =
        List.of("1:56 pm on 8 May, 2023", "2023-05-08 13:56", "May 8th, 2023", "spring", "8/5/23");
    List<String> terms = new java.util.ArrayList<>();
    for (String when : written) {
      SourceDocument doc =
          new SourceDocument(
              "c.json",
              """
              {"conversation": {"session_1_date_time": "%s",
                "session_1": [{"speaker": "Ada", "dia_id": "D1:1", "text": "Hi."}]}}
              """
                  .formatted(when));
      MemoryNode turn =
          new EnrichedConversationPack(true, 0).read(doc).graphs().get(0).nodes().get(0);
      terms.add(turn.attributes().get(MemoryNode.INDEX_TERMS));
      assertThat(turn.content()).isEqualTo("Ada: Hi. [" + when + "]");
    }

    // the words of "8 May 2023" the text as written lacks; none for a date that cannot be read
    assertThat(terms).containsExactly(null, "8 May", "8", null, null);
  }

  @Test
  void read_termEdges_linkTurnsOfDifferentSessionsSharingARareWord() {
    Ingestion plain = new EnrichedConversationPack(false, 0).read(DOC);
    Ingestion linked = new EnrichedConversationPack(false, 0, true).read(DOC);

    List<MemoryEdge> added =
        linked.graphs().get(0).edges().stream()
            .filter(e -> e.edgeType().equals("shares_term"))
            .toList();
    // "pottery" is in D1:1, D1:2 and D2:1; "teacher" in D1:3 and D2:1; same-session pairs are not
    // linked (next_turn and same_session already are)
    assertThat(added)
        .extracting(e -> e.from() + "-" + e.to())
        .containsExactlyInAnyOrder("D1:1-D2:1", "D1:2-D2:1", "D1:3-D2:1");
    assertThat(added).allMatch(e -> e.weight() == EnrichedConversationPack.TERM_WEIGHT);
    assertThat(linked.graphs().get(0).nodes()).isEqualTo(plain.graphs().get(0).nodes());
    assertThat(linked.graphs().get(0).edges()).containsAll(plain.graphs().get(0).edges());
  }

  @Test
  void read_termThresholds_linkOnlyWordsHeldByFewEnoughTurnsWithTheGivenWeight() {
    // "pottery" is held by three turns, "teacher" by two: at most two turns, only "teacher" links
    Ingestion in = new EnrichedConversationPack(false, 0, true, false, false, 2, 0.1).read(DOC);

    List<MemoryEdge> added =
        in.graphs().get(0).edges().stream()
            .filter(e -> e.edgeType().equals("shares_term"))
            .toList();
    assertThat(added).extracting(e -> e.from() + "-" + e.to()).containsExactly("D1:3-D2:1");
    assertThat(added).allMatch(e -> e.weight() == 0.1);
  }

  @Test
  void new_badTermThresholds_areRefused() {
    assertThatThrownBy(() -> new EnrichedConversationPack(false, 0, true, false, false, 1, 0.4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 2");
    for (double w : new double[] {0, -0.1, 1.5, Double.NaN}) {
      assertThatThrownBy(() -> new EnrichedConversationPack(false, 0, true, false, false, 4, w))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("weight");
    }
  }

  @Test
  void read_entityEdges_linkTurnsNamingTheSameProperNounThroughOneEntityNode() {
    SourceDocument doc =
        new SourceDocument(
            "e.json",
            """
            {"conversation": {
              "session_1_date_time": "8 May, 2023",
              "session_1": [
                {"speaker": "Ada", "dia_id": "D1:1", "text": "I flew to Lisbon with Marta."},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Lucky you. Was it warm?"}],
              "session_2_date_time": "9 May, 2023",
              "session_2": [
                {"speaker": "Bo", "dia_id": "D2:1", "text": "Did Marta like it in Lisbon?"},
                {"speaker": "Ada", "dia_id": "D2:2", "text": "She did, and we met Ada there."}]}}
            """);

    Ingestion in = new EnrichedConversationPack(false, 0, false, true, false).read(doc);

    List<MemoryNode> entities =
        in.graphs().get(0).nodes().stream().filter(n -> n.type().equals("entity")).toList();
    // "Ada" is named by one turn only (a speaker's name before the colon is not what a turn says)
    assertThat(entities)
        .extracting(MemoryNode::id)
        .containsExactly("entity:lisbon", "entity:marta");
    assertThat(in.graphs().get(0).edges().stream().filter(e -> e.edgeType().equals("mentions")))
        .extracting(e -> e.from() + ">" + e.to())
        .containsExactlyInAnyOrder(
            "D1:1>entity:lisbon", "D2:1>entity:lisbon", "D1:1>entity:marta", "D2:1>entity:marta");
    assertThat(new EnrichedConversationPack(false, 0, false, true, false).label())
        .isEqualTo("entity-edges");
  }

  @Test
  void read_resolveDates_addsTheAbsoluteDatesOfRelativeExpressionsAgainstTheSessionDate() {
    Ingestion in = new EnrichedConversationPack(false, 0, false, false, true).read(DOC);

    List<MemoryNode> nodes = in.graphs().get(0).nodes();
    // session 1 is on Monday 8 May 2023; "today" in D1:1 is that day
    assertThat(nodes.get(0).content())
        .isEqualTo("Ada: My pottery class starts today. [today: 8 May 2023]");
    assertThat(nodes.get(0).attributes()).containsEntry("resolved_dates", "2023-05-08");
    assertThat(nodes.get(1).content()).isEqualTo("Bo: Pottery sounds calming.");
    assertThat(nodes.get(1).attributes()).doesNotContainKey("resolved_dates");
  }

  @Test
  void parse_optionsInAnyOrder_giveThePackTheBenchmarkMeasures() {
    assertThat(EnrichedConversationPack.parse("conversation+term-edges+window1+dated"))
        .isEqualTo(new EnrichedConversationPack(true, 1, true, false, false));
    assertThat(EnrichedConversationPack.parse("conversation+entity-edges+resolved-dates"))
        .isEqualTo(new EnrichedConversationPack(false, 0, false, true, true));
    // the label names the pack back
    EnrichedConversationPack p = new EnrichedConversationPack(true, 2, true, true, true);
    assertThat(EnrichedConversationPack.parse("conversation+" + p.label())).isEqualTo(p);
  }

  @Test
  void named_throughDomainPacks_readsLikeThePackWithThoseOptions() {
    DomainPack named = DomainPacks.named("conversation+dated+window1");
    assertThat(named.name()).isEqualTo("conversation");
    assertThat(named.read(DOC).graphs().get(0).nodes())
        .isEqualTo(new EnrichedConversationPack(true, 1).read(DOC).graphs().get(0).nodes());
  }

  @Test
  void parse_badOptions_areRefusedNamingThePack() {
    for (String bad :
        List.of(
            "conversation+window4",
            "conversation+dated+dated",
            "conversation+window1+window2",
            "conversation+",
            "conversation+Dated")) {
      assertThatThrownBy(() -> DomainPacks.named(bad))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("pack")
          .hasMessageContaining(bad);
    }
  }
}
