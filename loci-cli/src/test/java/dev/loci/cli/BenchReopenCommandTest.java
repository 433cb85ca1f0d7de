package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci bench reopen} end to end, with tiny stores so it cannot rot. */
class BenchReopenCommandTest {
  @TempDir Path tmp;

  @Test
  void benchReopen_tinyRun_printsEachOpenWithItsCpuTimeAndWritesJson() throws Exception {
    Path out = tmp.resolve("report.json");
    CliRunner.Result r =
        CliRunner.runRaw(
            "",
            "bench",
            "reopen",
            "--work-dir",
            tmp.resolve("work").toString(),
            "--nodes",
            "1000",
            "--traces",
            "500",
            "--rounds",
            "1",
            "--out",
            out.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .containsPattern("\\| 1,000 nodes \\| replay \\| [0-9.]+ s \\| [0-9.]+ s \\| [0-9.]+ s \\|")
        .containsPattern("\\| 1,000 nodes \\| snapshot \\|")
        .containsPattern("\\| 500 traces \\| replay \\|");
    assertThat(new ObjectMapper().readTree(Files.readString(out)).get("opens")).hasSize(3);
  }
}
