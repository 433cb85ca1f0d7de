package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci bench journal} end to end, with tiny settings so it cannot rot. */
class BenchCommandsTest {
  @TempDir Path tmp;

  @Test
  void benchJournal_tinyRun_printsTableWithRatiosAndWritesJson() throws Exception {
    Path out = tmp.resolve("report.json");
    CliRunner.Result r =
        CliRunner.runRaw(
            "",
            "bench",
            "journal",
            "--work-dir",
            tmp.resolve("work").toString(),
            "--writers",
            "1,2",
            "--warmup",
            "0.1",
            "--seconds",
            "0.3",
            "--replay-events",
            "2000",
            "--out",
            out.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("| Loci `always`, 1 writer |")
        .contains("| SQLite WAL `synchronous=FULL`, 2 writers |")
        .contains("| Ratio Loci / SQLite, 2 writers |")
        .contains("Open from snapshot of 2,000 traces");
    assertThat(new ObjectMapper().readTree(Files.readString(out)).isObject()).isTrue();
  }

  @Test
  void benchPathway_tinyRun_printsTableWithRatiosAndWritesJson() throws Exception {
    Path out = tmp.resolve("pathway.json");
    CliRunner.Result r =
        CliRunner.runRaw(
            "",
            "bench",
            "pathway",
            "--work-dir",
            tmp.resolve("work").toString(),
            "--sizes",
            "400",
            "--queries",
            "25",
            "--inserts",
            "50",
            "--out",
            out.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("| 400 | `insert`, `always`, 8 writers |")
        .contains("| 400 | `query_for_hotswap`, scan p50 / Loci p50 |")
        .contains("| 400 | `query_by_vec`, scan p50 / Loci p50 |")
        .contains("recall 1.0");
    assertThat(r.err()).contains("JIT warm-up").contains("query_by_vec k=10 over 25 queries");
    JsonNode json = new ObjectMapper().readTree(Files.readString(out));
    assertThat(
            json.path("sizes")
                .path(0)
                .path("query_for_hotswap")
                .path("loci")
                .path("queries")
                .asInt())
        .isEqualTo(50);
    assertThat(json.path("sizes").path(0).path("query_by_vec").path("recall").asDouble())
        .isEqualTo(1.0);
  }

  @Test
  void benchPathway_sizeBelowMinimum_exitsTwoNamingTheSize() {
    CliRunner.Result r = CliRunner.runRaw("", "bench", "pathway", "--sizes", "10000,50");
    assertThat(r.exitCode()).isEqualTo(2);
    CliRunner.assertOneErrorLine(r, "found 50");
  }

  @Test
  void benchJournal_badWriterCount_exitsTwo() {
    CliRunner.Result r = CliRunner.runRaw("", "bench", "journal", "--writers", "x");
    assertThat(r.exitCode()).isEqualTo(2);
  }

  private static final String LOCOMO =
      """
      [{"sample_id": "conv-1", "conversation": {
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
          {"speaker": "Ada", "dia_id": "D1:1", "text": "I adopted a grey kitten called Pixel."},
          {"speaker": "Bo", "dia_id": "D1:2", "text": "Does Pixel like the garden?"}],
        "session_2_date_time": "1:00 pm on 9 May, 2023"},
       "qa": [
        {"question": "What is the kitten called?", "answer": "Pixel", "evidence": ["D1:1"],
         "category": 4},
        {"question": "Who asked about the garden?", "adversarial_answer": "Ada",
         "evidence": ["D1:2", "D"], "category": 5},
        {"question": "What colour is the sky?", "answer": "", "evidence": [], "category": 3}]}]
      """;

  @Test
  void benchLocomo_tinyFile_printsTablesAndSkipsAndWritesJson() throws Exception {
    Path data = Files.writeString(tmp.resolve("locomo.json"), LOCOMO);
    Path out = tmp.resolve("locomo-report.json");
    CliRunner.Result r =
        CliRunner.runRaw(
            "",
            "bench",
            "locomo",
            "--data",
            data.toString(),
            "--modes",
            "lexical,ppr",
            "--k",
            "1,5",
            "--embedding",
            "hashing",
            "--work-dir",
            tmp.resolve("work").toString(),
            "--out",
            out.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("### Tuning (conversations 1-5), turn level, 2 questions")
        .contains("| system | all@1 | any@1 | recall@1 | all@5 |")
        .contains("| peer:lucene_bm25 | 1.000 |")
        .contains("Skipped questions: {empty evidence=1}")
        .contains("{malformed evidence id=1}");
    assertThat(r.err()).contains("locomo: questions 2/2");
    JsonNode json = new ObjectMapper().readTree(Files.readString(out));
    assertThat(json.path("questions")).hasSize(2);
    assertThat(json.path("options").path("embedding").asText()).isEqualTo("hashing");
  }

  @Test
  void benchLocomo_dumpCandidates_writesALinePerConversationAndQuestion() throws Exception {
    Path data =
        Files.writeString(
            tmp.resolve("locomo.json"),
            LOCOMO.replace(
                "What is the kitten called?", "What was the kitten called in May 2023?"));
    Path dump = tmp.resolve("dump.jsonl");
    CliRunner.Result r =
        CliRunner.runRaw(
            "",
            "bench",
            "locomo",
            "--data",
            data.toString(),
            "--modes",
            "lexical",
            "--embedding",
            "hashing",
            "--no-dense-peer",
            "--work-dir",
            tmp.resolve("work").toString(),
            "--dump-candidates",
            dump.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    List<String> lines = Files.readAllLines(dump);
    assertThat(lines).hasSize(3);
    ObjectMapper json = new ObjectMapper();
    JsonNode conversation = json.readTree(lines.get(0));
    assertThat(conversation.path("anchor").asText()).isEqualTo("2023-05-08");
    assertThat(conversation.path("days").path("D1:1").asText()).isEqualTo("2023-05-08");
    JsonNode question = json.readTree(lines.get(1));
    assertThat(question.path("lexical").get(0).get(0).asText()).isEqualTo("D1:1");
    assertThat(question.path("embedding")).isNotEmpty();
    assertThat(question.path("periods").get(0).toString())
        .isEqualTo("[\"May 2023\",\"2023-05-01\",\"2023-05-31\"]");
  }

  @Test
  void benchLocomo_noSuchFile_isAUsageError() {
    CliRunner.Result r =
        CliRunner.runRaw("", "bench", "locomo", "--data", tmp.resolve("missing.json").toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("expected the LoCoMo JSON file");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void benchCases_bundledDemo_reportsPassFailPerModeAndHitRate() throws Exception {
    Path docs = Files.createDirectories(tmp.resolve("demo"));
    for (dev.loci.recall.DemoCorpus.Document d : dev.loci.recall.DemoCorpus.documents()) {
      Files.writeString(docs.resolve(d.document().path()), d.document().text());
    }
    Path cases =
        Files.writeString(
            docs.resolve(dev.loci.recall.DemoCorpus.CASES), dev.loci.recall.DemoCorpus.casesJson());
    CliRunner.Result r =
        CliRunner.runRaw(
            "",
            "bench",
            "cases",
            cases.toString(),
            "--pack",
            "markdown:contract",
            "--docs",
            docs.toString(),
            "--modes",
            "lexical,weighted_graph",
            "--work-dir",
            tmp.resolve("work").toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("| case | lexical | weighted_graph |")
        .contains("| contract-late-delivery | fail 1/2 | PASS 2/2 |")
        .contains("| **passed** | 1/5 | 5/5 |")
        .contains("| **evidence hit rate** | 0.600 | 1.000 |");
    assertThat(r.err()).contains("with markdown:runbook");
  }
}
