package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Namespace;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The conversation pack on a small synthetic file in the LoCoMo layout, quirks included. */
class ConversationPackTest {
  static final String LOCOMO_LIKE =
      """
      [
        {"sample_id": "conv-1",
         "qa": [{"question": "q", "answer": "a", "evidence": ["D1:1"], "category": 4}],
         "conversation": {
           "speaker_a": "Ann", "speaker_b": "Bo",
           "session_1_date_time": "1:56 pm on 8 May, 2023",
           "session_1": [
             {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a dog."},
             {"speaker": "Bo", "dia_id": "D1:2", "text": "Look at this!",
              "img_url": ["https://example.invalid/x.jpg"], "blip_caption": "a photo of a cake"},
             {"speaker": "Ann", "text": "no id here"},
             {"speaker": "Ann", "dia_id": "D1:1", "text": "repeated id"},
             {"speaker": "Bo", "dia_id": "D1:3", "text": "Nice."}
           ],
           "session_2_date_time": "2:00 pm on 9 May, 2023",
           "session_2": [
             {"speaker": "Bo", "dia_id": "D2:1", "text": "How is the dog?"}
           ],
           "session_3_date_time": "3:00 pm on 10 May, 2023"
         }},
        {"sample_id": "Conv 2",
         "conversation": {"session_1": [{"speaker": "Cy", "dia_id": "D1:1", "text": "Hi"}]}},
        {"conversation": {"session_1": []}}
      ]
      """;

  private final Ingestion ingestion =
      DomainPacks.named("conversation").read(new SourceDocument("locomo-like.json", LOCOMO_LIKE));

  @Test
  void eachSampleIsAGraphInTheChildNamespaceOfItsId() {
    assertThat(ingestion.graphs())
        .extracting(Ingestion.Graph::childLabel)
        .containsExactly(Optional.of("conv-1"), Optional.of("conv-2"));
    assertThat(Namespace.of("locomo." + ingestion.graphs().get(1).childLabel().get()).value())
        .isEqualTo("locomo.conv-2");
  }

  @Test
  void oneNodePerTurn_idIsDiaId_withSessionTimeSpeakerAndImageCaption() {
    List<MemoryNode> nodes = ingestion.graphs().get(0).nodes();

    assertThat(nodes).extracting(MemoryNode::id).containsExactly("D1:1", "D1:2", "D1:3", "D2:1");
    MemoryNode first = nodes.get(0);
    assertThat(first.type()).isEqualTo("turn");
    assertThat(first.content()).isEqualTo("Ann: I adopted a dog.");
    assertThat(first.attributes())
        .containsEntry("session_time", "1:56 pm on 8 May, 2023")
        .containsEntry("session", "session_1")
        .containsEntry("speaker", "Ann")
        .containsEntry("sample_id", "conv-1");
    assertThat(first.sourceRef().orElseThrow().section()).contains("conv-1/session_1/D1:1");
    assertThat(nodes.get(1).content()).isEqualTo("Bo: Look at this! [image: a photo of a cake]");
    assertThat(nodes.get(1).attributes()).containsEntry("image_caption", "a photo of a cake");
    assertThat(nodes.get(3).attributes()).containsEntry("session_time", "2:00 pm on 9 May, 2023");
  }

  @Test
  void nextTurnAndSameSessionEdges_stayInsideASession() {
    List<MemoryEdge> edges = ingestion.graphs().get(0).edges();

    assertThat(edges)
        .filteredOn(e -> e.edgeType().equals("next_turn"))
        .extracting(e -> e.from() + ">" + e.to())
        .containsExactly("D1:1>D1:2", "D1:2>D1:3");
    assertThat(edges)
        .filteredOn(e -> e.edgeType().equals("same_session"))
        .extracting(e -> e.from() + ">" + e.to())
        .containsExactly("D1:1>D1:2", "D1:1>D1:3", "D1:2>D1:3");
    assertThat(edges).allSatisfy(e -> assertThat(e.bidirectional()).isTrue());
  }

  @Test
  void longSession_linksEachTurnToTheNextSixteenOnly_notEveryTurnOfTheSession() {
    List<MemoryEdge> edges =
        DomainPacks.named("conversation")
            .read(
                new SourceDocument(
                    "long.json", "{\"conversation\":{\"session_1\":[" + turns(40) + "]}}"))
            .graphs()
            .get(0)
            .edges();

    List<MemoryEdge> session =
        edges.stream().filter(e -> e.edgeType().equals("same_session")).toList();
    // 24 turns reach 16 ahead, the last 16 reach 15, 14, ... 0: 504 edges, a clique 780
    assertThat(session).hasSize(16 * 24 + 120);
    assertThat(session)
        .allSatisfy(
            e -> {
              int from = Integer.parseInt(e.from().substring(3));
              int to = Integer.parseInt(e.to().substring(3));
              assertThat(to - from).as(e.from() + ">" + e.to()).isBetween(1, 16);
            });
    assertThat(session).extracting(e -> e.from() + ">" + e.to()).contains("D1:1>D1:17");
    assertThat(session).extracting(e -> e.from() + ">" + e.to()).doesNotContain("D1:1>D1:18");
    assertThat(edges).filteredOn(e -> e.edgeType().equals("next_turn")).hasSize(39);
  }

  /** {@code n} turns of speaker A, {@code D1:1} to {@code D1:n}, as a session's JSON items. */
  static String turns(int n) {
    StringBuilder turns = new StringBuilder();
    for (int i = 1; i <= n; i++) {
      turns
          .append(i > 1 ? "," : "")
          .append("{\"speaker\":\"A\",\"dia_id\":\"D1:")
          .append(i)
          .append("\",\"text\":\"turn ")
          .append(i)
          .append("\"}");
    }
    return turns.toString();
  }

  @Test
  void quirksAreSkippedWithReasons_neverFatal() {
    assertThat(ingestion.skipped())
        .extracting(s -> s.where() + ": " + s.reason())
        .containsExactlyInAnyOrder(
            "locomo-like.json conv-1/session_3: a session date with no turns",
            "locomo-like.json conv-1/session_1 turn 3: a turn needs dia_id, speaker and text;"
                + " missing dia_id",
            "locomo-like.json conv-1/session_1 turn 4: dia_id D1:1 repeats an earlier turn",
            "locomo-like.json sample 3: no sample_id, needed when a file has several");
  }
}
