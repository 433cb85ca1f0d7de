package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
