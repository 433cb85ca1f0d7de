package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci bench mcp}, tiny: a stdio child, a server with /mcp, and the embedded peer. */
class BenchMcpCommandTest {
  @TempDir Path tmp;

  @Test
  void benchMcp_tinyRun_printsEverySideOfBothToolsAndWritesJson() throws Exception {
    Path out = tmp.resolve("mcp.json");
    CliRunner.Result r =
        CliRunner.runRaw(
            "",
            "bench",
            "mcp",
            "--work-dir",
            tmp.resolve("work").toString(),
            "--calls",
            "10",
            "--warmup",
            "2",
            "--out",
            out.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("| recall | embedded |")
        .contains("| recall | stdio |")
        .contains("| recall | http |")
        .contains("| remember | embedded |")
        .contains("| remember | stdio |")
        .contains("| remember | http |");
    JsonNode json = new ObjectMapper().readTree(Files.readString(out));
    assertThat(json.path("results")).hasSize(6);
    json.path("results").forEach(n -> assertThat(n.path("p50_us").asDouble()).isPositive());
  }
}
