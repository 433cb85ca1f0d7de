package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci bench govern} end to end, with tiny settings so it cannot rot. */
class BenchGovernCommandTest {
  @TempDir Path tmp;

  @Test
  void benchGovern_tinyRun_printsWritesAndContextLatencyAndWritesJson() throws Exception {
    Path out = tmp.resolve("report.json");
    CliRunner.Result r =
        CliRunner.runRaw(
            "",
            "bench",
            "govern",
            "--work-dir",
            tmp.resolve("work").toString(),
            "--sizes",
            "50",
            "--queries",
            "5",
            "--seconds",
            "0.3",
            "--out",
            out.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("| plain trace add |")
        .contains("| governed active write with a slot (conflict check) |")
        .containsPattern("\\| 50 \\| [0-9.]+ ms \\| [0-9.]+ ms \\| [0-9.]+ ms \\| [0-9.]+ ms \\|");
    assertThat(new ObjectMapper().readTree(Files.readString(out)).get("context_us")).hasSize(1);
  }
}
