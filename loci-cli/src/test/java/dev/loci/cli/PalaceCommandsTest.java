package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.recall.DemoCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loci spaces}, {@code loci feedback}, {@code loci consolidate}, {@code loci lifecycle
 * sweep} and {@code loci recall --explain/--reinforce} through {@link Main#run}.
 */
class PalaceCommandsTest {
  @TempDir Path tmp;
  private CliRunner cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = new CliRunner(tmp.resolve("data"));
    Path runbook = tmp.resolve("02_payments_runbook.md");
    Files.writeString(runbook, DemoCorpus.documents().get(1).document().text());
    ok(
        "ingest",
        "--pack",
        "markdown:runbook",
        "--ns",
        "ops",
        "--embedding",
        "hashing",
        runbook.toString());
  }

  private CliRunner.Result ok(String... args) {
    CliRunner.Result r = cli.run(args);
    assertThat(r.exitCode()).as("%s\n%s", String.join(" ", args), r.err()).isZero();
    return r;
  }

  @Test
  void spaces_listsSectionsWithReadableIds_andOneSpaceItsMemories() throws Exception {
    assertThat(ok("spaces", "--ns", "ops").out())
        .contains("02_payments_runbook:mitigate  section  4 memories  Mitigate");
    assertThat(ok("spaces", "--ns", "ops", "02_payments_runbook:escalate").out())
        .contains("02_payments_runbook:7  semantic  encoded  uses 0  stability 0.500");
    JsonNode json = new ObjectMapper().readTree(ok("--json", "spaces", "--ns", "ops").out());
    assertThat(json.toString()).contains("\"id\":\"02_payments_runbook:detect\"");
    CliRunner.Result missing = cli.run("spaces", "--ns", "ops", "nowhere");
    assertThat(missing.exitCode()).isNotZero();
    assertThat(missing.err()).contains("nowhere");
  }

  @Test
  void feedback_reinforces_storesARoute_thatRecallExplainShows() {
    CliRunner.Result f =
        ok(
            "feedback",
            "--ns",
            "ops",
            "--node",
            "02_payments_runbook:3",
            "--route",
            "02_payments_runbook:4,02_payments_runbook:3,02_payments_runbook:6");
    assertThat(f.out())
        .contains("used: 02_payments_runbook:3")
        .contains("route: ")
        .contains("02_payments_runbook:3: encoded -> active");
    CliRunner.Result r =
        ok(
            "recall",
            "--ns",
            "ops",
            "--embedding",
            "hashing",
            "--mode",
            "activation_spreading",
            "--explain",
            "restart fails to restore authorisations");
    assertThat(r.out())
        .contains("memories:")
        .contains("route ")
        .contains(": 02_payments_runbook:4 -> 02_payments_runbook:3 -> 02_payments_runbook:6")
        .contains("activation trace:")
        .containsPattern("hop 0  seed +02_payments_runbook:4")
        .contains("stopped: ")
        .containsPattern("stop reasons:( (below_threshold|hop_limit|visited) \\d+)+");
  }

  @Test
  void recallReinforce_recordsAUse_andSweepAndConsolidateReport() {
    CliRunner.Result r =
        ok(
            "recall",
            "--ns",
            "ops",
            "--embedding",
            "hashing",
            "--mode",
            "lexical",
            "--k",
            "1",
            "--reinforce",
            "page the payments on-call engineer");
    assertThat(r.out()).contains("reinforced: 02_payments_runbook:7");
    assertThat(ok("spaces", "--ns", "ops", "02_payments_runbook:escalate").out())
        .contains("02_payments_runbook:7  semantic  active  uses 1");
    assertThat(ok("lifecycle", "sweep", "--ns", "ops").out())
        .containsPattern("swept \\d+ memories at .*: 0 transitions");
    assertThat(ok("consolidate", "--ns", "ops").out())
        .contains("episodic memories examined, 0 summaries");
  }

  @Test
  void benchCases_palaceFixtures_everyFamilyReportedPerMode() {
    Path fixtures = Path.of("../loci-bench/src/test/resources/dev/loci/bench/palace");
    CliRunner.Result r =
        ok(
            "bench",
            "cases",
            fixtures.resolve("cases.json").toString(),
            "--pack",
            "markdown:runbook",
            "--docs",
            fixtures.toString(),
            "--work-dir",
            tmp.resolve("work").toString());
    assertThat(r.out())
        .contains("| **passed** | 4/7 | 4/7 | 4/7 | 4/7 | 6/7 | 5/7 | 6/7 |")
        .contains("| **path hit rate** | 0.000 | 0.000 | 0.000 | 0.000 | 1.000 | 0.000 | 1.000 |")
        .contains("| **trace hit rate** | 0.000 | 0.000 | 0.000 | 0.000 | 0.000 | 1.000 | 0.000 |")
        .contains("| **lifecycle hit rate** | 1.000 |");
  }
}
