package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.RecallMode;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reduced run on a synthetic LoCoMo-shaped file, so CI exercises the whole harness. */
class LocomoBenchmarkTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String[] INSTRUMENTS = {
    "cello", "oboe", "banjo", "harp", "tuba", "sitar", "lute"
  };
  private static final String[] CITIES = {
    "Lisbon", "Oslo", "Quito", "Hanoi", "Dakar", "Lima", "Perth"
  };

  @TempDir Path dir;

  /** Six small conversations: 1-5 are the tuning split, 6 is held out. */
  private Path fixture() throws IOException {
    ArrayNode root = MAPPER.createArrayNode();
    for (int i = 0; i < 6; i++) {
      ObjectNode sample = root.addObject();
      sample.put("sample_id", "conv-" + (i + 1));
      ObjectNode conv = sample.putObject("conversation");
      conv.put("session_1_date_time", "1:00 pm on " + (i + 1) + " May, 2023");
      ArrayNode s1 = conv.putArray("session_1");
      turn(s1, "Ada", "D1:1", "Hello Bo, how was the week?");
      turn(s1, "Bo", "D1:2", "Busy. I finally bought a " + INSTRUMENTS[i] + " to practise.");
      turn(s1, "Ada", "D1:3", "Wonderful, play me something soon.");
      conv.put("session_2_date_time", "2:00 pm on " + (i + 10) + " May, 2023");
      ArrayNode s2 = conv.putArray("session_2");
      turn(s2, "Bo", "D2:1", "Next month I travel to " + CITIES[i] + " for a concert.");
      turn(s2, "Ada", "D2:2", "Take the new instrument along with you.");
      conv.put("session_3_date_time", "3:00 pm on 20 May, 2023");
      ArrayNode qa = sample.putArray("qa");
      question(qa, "Which " + INSTRUMENTS[i] + " did Bo buy?", 4, "D1:2");
      question(qa, "Where will Bo take the " + INSTRUMENTS[i] + "?", 1, "D1:2", "D2:1 D2:2");
      question(qa, "What is Bo's favourite colour?", 3);
    }
    Path file = dir.resolve("locomo-fixture.json");
    MAPPER.writeValue(file.toFile(), root);
    return file;
  }

  private static void turn(ArrayNode session, String speaker, String id, String text) {
    session.addObject().put("speaker", speaker).put("dia_id", id).put("text", text);
  }

  private static void question(ArrayNode qa, String text, int category, String... evidence) {
    ObjectNode q = qa.addObject().put("question", text).put("category", category);
    ArrayNode e = q.putArray("evidence");
    Stream.of(evidence).forEach(e::add);
  }

  @Test
  void scores_sessionRanking_ranksEachSessionByItsBestTurnBeyondTheTurnCutOff() {
    // three turns of D1 fill the top 3, so the sessions of the top 3 turns miss D2 and D3, while
    // the session ranking (D1, D2, D3, ...) has both gold sessions among its first 3
    List<String> ranked = List.of("D1:1", "D1:2", "D1:3", "D2:4", "D1:5", "D3:1", "D4:2");
    LocomoBenchmark.Asked asked =
        new LocomoBenchmark.Asked(
            new LocomoData.Question("q", 1, "which?", List.of("D2:4", "D3:1")),
            6,
            java.util.Map.of("s", ranked));

    var session = LocomoBenchmark.scores(asked, "s", "session", List.of(3, 5));
    var ranking = LocomoBenchmark.scores(asked, "s", "session_ranking", List.of(3, 5));

    assertThat(session).containsEntry("recall_all@3", 0.0).containsEntry("recall_all@5", 0.0);
    assertThat(ranking)
        .containsEntry("recall_all@3", 1.0)
        .containsEntry("recall_any@3", 1.0)
        .containsEntry("mrr", 0.5);
    assertThat(LocomoBenchmark.scores(asked, "s", "session_ranking", List.of(2)))
        .containsEntry("recall_all@2", 0.0)
        .containsEntry("recall@2", 0.5);
  }

  @Test
  void run_syntheticConversations_scoresEveryQuestionOfEverySystemAndSplit() throws IOException {
    Path work = dir.resolve("work");
    LocomoBenchmark.Options options =
        new LocomoBenchmark.Options(
            fixture(),
            work,
            List.of(RecallMode.LEXICAL, RecallMode.HYBRID, RecallMode.WEIGHTED_GRAPH),
            List.of(1, 5),
            "hashing",
            HashingEmbeddingProvider.create(),
            false,
            0,
            false,
            4,
            0.4,
            true,
            true,
            3,
            1,
            Optional.empty(),
            List.of(0.5),
            List.of(0),
            List.of(0.3),
            List.of(0.5),
            Set.of(),
            true);
    ByteArrayOutputStream logBytes = new ByteArrayOutputStream();

    LocomoBenchmark.Report report =
        LocomoBenchmark.run(options, new PrintStream(logBytes, true, StandardCharsets.UTF_8));

    assertThat(report.systems())
        .containsExactly(
            "lexical",
            "hybrid",
            "weighted_graph",
            "peer:lucene_bm25",
            "peer:sqlite_fts5",
            "peer:dense_scan");
    assertThat(report.asked()).hasSize(12);
    assertThat(report.asked()).filteredOn(a -> a.split().equals("held_out")).hasSize(2);
    var summary = report.summary();
    for (String system : List.of("lexical", "peer:lucene_bm25", "peer:sqlite_fts5")) {
      // the single-hop question names the instrument, which only D1:2 holds
      assertThat(summary.get("all").get("turn").get(system).get("single-hop"))
          .containsEntry("questions", 6.0)
          .containsEntry("recall_any@1", 1.0);
    }
    assertThat(summary.get("held_out").get("session").get("lexical").get("overall"))
        .containsEntry("questions", 2.0);
    assertThat(report.data().skipCounts("question")).containsEntry("empty evidence", 6);
    assertThat(report.data().skipCounts("session"))
        .containsEntry("session date with no session", 6);

    String markdown = report.toMarkdown();
    assertThat(markdown)
        .contains("### Held out (conversations 6-10), turn level, 2 questions")
        .contains("### Tuning (conversations 1-5), session level, 10 questions")
        .contains(
            "### Tuning (conversations 1-5), session ranking (each session by its best turn),"
                + " 10 questions")
        .contains("session ranking recall_all@1 pooled")
        .contains("| peer:sqlite_fts5 |")
        .contains("### Goal on held-out conversations");
    JsonNode json = MAPPER.readTree(report.toJson());
    assertThat(json.path("questions")).hasSize(12);
    JsonNode first = json.path("questions").get(0);
    assertThat(first.path("results").path("lexical").path("ranked").get(0).asText())
        .isEqualTo("D1:2");
    assertThat(first.path("results").path("peer:dense_scan").path("turn").has("ndcg@10")).isTrue();
    assertThat(json.path("skipped").path("question").path("empty evidence").asInt()).isEqualTo(6);
    assertThat(json.path("summary").path("held_out").path("turn").path("ppr").isMissingNode())
        .isTrue();
    assertThat(logBytes.toString(StandardCharsets.UTF_8)).contains("locomo: questions 12/12");
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void run_someConversations_embedsOnlyTheTurnsOfThoseConversations() throws IOException {
    List<String> embedded = Collections.synchronizedList(new ArrayList<>());
    HashingEmbeddingProvider hashing = HashingEmbeddingProvider.create();
    EmbeddingProvider counting =
        new EmbeddingProvider() {
          @Override
          public String modelId() {
            return hashing.modelId();
          }

          @Override
          public int dimension() {
            return hashing.dimension();
          }

          @Override
          public List<float[]> embedDocuments(List<String> texts) {
            embedded.addAll(texts);
            return hashing.embedDocuments(texts);
          }
        };
    LocomoBenchmark.Options options =
        new LocomoBenchmark.Options(
            fixture(),
            dir.resolve("work"),
            List.of(RecallMode.EMBEDDING, RecallMode.HYBRID),
            List.of(1, 5),
            "hashing",
            counting,
            false,
            0,
            true,
            4,
            0.4,
            true,
            false,
            3,
            1,
            Optional.empty(),
            List.of(0.5),
            List.of(0),
            List.of(0.3),
            List.of(0.5),
            Set.of(6),
            true);

    LocomoBenchmark.Report report =
        LocomoBenchmark.run(options, new PrintStream(new ByteArrayOutputStream(), true));

    assertThat(report.asked()).hasSize(2).allMatch(a -> a.conversation() == 6);
    // conversation 6's own turns name the sitar and Lima; every other one names its own pair
    assertThat(String.join("\n", embedded)).contains("sitar").contains("Lima");
    for (int i = 0; i < 5; i++) {
      assertThat(String.join("\n", embedded))
          .doesNotContain(INSTRUMENTS[i])
          .doesNotContain(CITIES[i]);
    }
  }
}
