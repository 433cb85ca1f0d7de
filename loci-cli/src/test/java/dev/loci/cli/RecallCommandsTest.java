package dev.loci.cli;

import static dev.loci.cli.CliRunner.assertOneErrorLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.recall.DemoCorpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci ingest}, {@code loci recall} and {@code loci demo} through {@link Main#run}. */
class RecallCommandsTest {
  @TempDir Path tmp;
  private CliRunner cli;
  private Path contract;

  @BeforeEach
  void setUp() throws Exception {
    cli = new CliRunner(tmp.resolve("data"));
    contract = tmp.resolve("01_supply_agreement.md");
    Files.writeString(contract, DemoCorpus.documents().get(0).document().text());
  }

  private CliRunner.Result ingestWith(String embedding) {
    return cli.run(
        "ingest",
        "--pack",
        "markdown:contract",
        "--ns",
        "acme",
        "--embedding",
        embedding,
        contract.toString());
  }

  private CliRunner.Result ok(String... args) {
    CliRunner.Result r = cli.run(args);
    assertThat(r.exitCode()).as("%s\n%s", String.join(" ", args), r.err()).isZero();
    return r;
  }

  @Test
  void ingest_printsASummary_andProgressOnStderr_andIsIdempotent() {
    CliRunner.Result first =
        ok("ingest", "--pack", "markdown:contract", "--ns", "acme", contract.toString());

    assertThat(first.out())
        .startsWith(contract + ": 14 nodes, ")
        .contains("into acme (", " 0 removed, 1 batches), 0 skipped");
    assertThat(first.err())
        .matches(
            "(?s)loci: ingesting .*: (\\d+)/\\1 records\\Rloci: embedding acme: 14/14 nodes\\R");
    Path cache = tmp.resolve("data/cache/embeddings/bge-small-en-v1.5.bin");
    assertThat(first.out())
        .contains("embeddings: bge-small-en-v1.5, 14 computed, 0 from the cache " + cache);

    CliRunner.Result again =
        ok("ingest", "--pack", "markdown:contract", "--ns", "acme", contract.toString());
    assertThat(again.out())
        .contains("(0 written, 0 removed, 0 batches)")
        .as("the persisted vector index already holds every node")
        .contains("embeddings: bge-small-en-v1.5, 0 computed, 0 from the cache " + cache);

    deleteTree(tmp.resolve("data/index"));
    CliRunner.Result rebuilt =
        ok("ingest", "--pack", "markdown:contract", "--ns", "acme", contract.toString());
    assertThat(rebuilt.out())
        .as("a rebuilt vector index takes its vectors from the cache, not the model")
        .contains("embeddings: bge-small-en-v1.5, 0 computed, 14 from the cache " + cache);
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void ingest_hashingEmbedding_cachedInItsOwnFile() {
    CliRunner.Result r = ingestWith("hashing");

    assertThat(r.exitCode()).as(r.err()).isZero();

    assertThat(tmp.resolve("data/cache/embeddings/hashing-384-v1.bin")).isRegularFile();
    assertThat(tmp.resolve("data/cache/embeddings/bge-small-en-v1.5.bin")).doesNotExist();
  }

  @Test
  void ingest_unknownEmbedding_isAUsageErrorNamingTheField() {
    CliRunner.Result r = ingestWith("bert");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(
        r,
        "embedding: expected one of [onnx, bge-small, bge-small-q, bge-small-qd, bge-small-int8, hashing], found 'bert'");
    assertThat(tmp.resolve("data")).doesNotExist();
  }

  @Test
  void ingest_reportsSkippedUnitsWithReasonsOnStderr() throws Exception {
    Path bad = tmp.resolve("bad.md");
    Files.writeString(bad, "# S\n1. See clause 9.\n1. Again.\n");

    CliRunner.Result r =
        ok("--json", "ingest", "--pack", "markdown:contract", "--ns", "acme", bad.toString());

    JsonNode report = r.json().get("items").get(0);
    assertThat(report.get("nodes").asInt()).isEqualTo(1);
    assertThat(report.get("skipped")).hasSize(2);
    assertThat(report.get("skipped").get(0).get("reason").asText())
        .contains("unit number 1 was already used at line 2");

    CliRunner.Result text =
        ok("ingest", "--pack", "markdown:contract", "--ns", "acme", bad.toString());
    assertThat(text.err()).contains("loci: skipped " + bad + " line 2: bad:1 cites clause 9");
  }

  @Test
  void ingest_badPackOrMissingFile_isAUsageErrorNamingTheField() {
    CliRunner.Result pack =
        cli.run("ingest", "--pack", "poem", "--ns", "acme", contract.toString());
    assertThat(pack.exitCode()).isEqualTo(2);
    assertOneErrorLine(pack, "pack: expected one of", "markdown:contract");

    CliRunner.Result file =
        cli.run(
            "ingest", "--pack", "conversation", "--ns", "acme", tmp.resolve("x.json").toString());
    assertThat(file.exitCode()).isEqualTo(2);
    assertOneErrorLine(file, "path: no file");
  }

  @Test
  void recall_json_hasItemsWithPathsEvidenceAndScoresInSnakeCase() {
    ok("ingest", "--pack", "markdown:contract", "--ns", "acme", contract.toString());

    JsonNode r =
        ok(
                "--json",
                "recall",
                "Can the buyer end the contract straight away if the supplier breaches it?",
                "--ns",
                "acme",
                "--mode",
                "weighted_graph",
                "--k",
                "5")
            .json();

    assertThat(r.get("mode").asText()).isEqualTo("weighted_graph");
    assertThat(r.get("items")).hasSize(5);
    JsonNode top = r.get("items").get(0);
    assertThat(top.get("node").get("id").asText()).isEqualTo("01_supply_agreement:12");
    assertThat(top.get("path").get("final_score").asDouble())
        .isEqualTo(top.get("score").asDouble());
    assertThat(top.get("path").get("supporting_evidence").get(0).get("path").asText())
        .isEqualTo(contract.toString());
    JsonNode viaEdge = null;
    for (JsonNode item : r.get("items")) {
      if (item.get("node").get("id").asText().equals("01_supply_agreement:11")) {
        viaEdge = item;
      }
    }
    assertThat(viaEdge).isNotNull();
    JsonNode steps = viaEdge.get("path").get("steps");
    assertThat(steps.get(0).get("via").asText()).isEqualTo("seed");
    assertThat(steps.get(0).get("node_id").asText()).isEqualTo("01_supply_agreement:12");
    assertThat(steps.get(1).get("via").asText()).isEqualTo("references");
    assertThat(steps.get(1).get("components").get("structural").asDouble()).isPositive();
  }

  @Test
  void recall_explain_printsThePathStepByStep_andTheActivationSnapshot() {
    ok("ingest", "--pack", "markdown:contract", "--ns", "acme", contract.toString());

    String out =
        ok(
                "recall",
                "What is the penalty for a late delivery?",
                "--ns",
                "acme",
                "--mode",
                "activation_spreading",
                "--k",
                "3",
                "--embedding",
                "hashing",
                "--explain")
            .out();

    assertThat(out)
        .contains("01_supply_agreement:4", "   path:", "1. seed ", "exception_to", "activation=")
        .contains("evidence: " + contract + " § Deliveries, lines ")
        .contains("activation snapshot:");
  }

  @Test
  void recall_badModeOrMissingData_isAUsageError() {
    ok("ingest", "--pack", "markdown:contract", "--ns", "acme", contract.toString());
    CliRunner.Result mode = cli.run("recall", "q", "--ns", "acme", "--mode", "fuzzy");
    assertThat(mode.exitCode()).isEqualTo(2);
    assertOneErrorLine(mode, "mode: expected one of lexical, embedding, hybrid");

    CliRunner.Result missing =
        new CliRunner(tmp.resolve("nowhere")).run("recall", "q", "--ns", "acme");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertOneErrorLine(missing, "data: no Loci data directory");
  }

  @Test
  void demo_printsLexicalBesidePathAwareAnswers_andLeavesNothingBehind() throws Exception {
    List<Path> before = demoDirs();

    CliRunner.Result r = CliRunner.runRaw("", "demo");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("What is the penalty for a late delivery?")
        .contains("found through: 01_supply_agreement:3 --exception_to--> 01_supply_agreement:4")
        .contains("found through: 01_supply_agreement:12 --references--> 01_supply_agreement:11")
        .contains("gold units in the top 5: lexical 5/9, weighted_graph 9/9");
    assertThat(r.err()).isEmpty();
    assertThat(demoDirs()).containsExactlyInAnyOrderElementsOf(before);
  }

  @Test
  void demo_hashingEmbedding_reachesTheExceptionThroughItsEdge() {
    CliRunner.Result r = CliRunner.runRaw("", "demo", "--embedding", "hashing");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("found through: 01_supply_agreement:3 --exception_to--> 01_supply_agreement:4")
        .contains("gold units in the top 5: lexical 5/9, weighted_graph 9/9");
  }

  private static List<Path> demoDirs() throws Exception {
    try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return all.filter(p -> p.getFileName().toString().startsWith("loci-demo")).toList();
    }
  }
}
