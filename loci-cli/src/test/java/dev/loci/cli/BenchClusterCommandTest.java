package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.postgres.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci bench cluster} end to end against the machine's PostgreSQL, with tiny settings. */
class BenchClusterCommandTest {
  @TempDir Path tmp;

  @Test
  void benchCluster_tinyRun_printsRatiosLagAndCatchUpAndWritesJson() throws Exception {
    Path out = tmp.resolve("report.json");
    try (TestDatabase admin = TestDatabase.create("loci_bench_admin")) {
      CliRunner.Result r =
          CliRunner.runRaw(
              "",
              "bench",
              "cluster",
              "--pg",
              admin.url(),
              "--work-dir",
              tmp.resolve("work").toString(),
              "--servers",
              "1,2",
              "--writers",
              "2",
              "--warmup",
              "0.1",
              "--seconds",
              "0.3",
              "--lag-samples",
              "20",
              "--out",
              out.toString());

      assertThat(r.exitCode()).as(r.err()).isZero();
      assertThat(r.out())
          .contains(
              "| servers | writers | Loci appends/s | plain INSERT+commit/s | Loci / peer | rounds"
                  + " written | batches/round | rounds moved | rounds refused |")
          .containsPattern(
              "\\| 2 \\| 4 \\| [0-9,]+ \\| [0-9,]+ \\| [0-9.]+x \\| [0-9,]+ \\| [0-9.]+ \\|"
                  + " [0-9,]+ \\| [0-9,]+ \\|")
          .contains("visibility lag on another instance: p50")
          .contains("catch-up of a new instance:");
      JsonNode json = new ObjectMapper().readTree(Files.readString(out));
      assertThat(json.get("appends")).hasSize(2);
      for (JsonNode row : json.get("appends")) {
        JsonNode rounds = row.get("rounds");
        // every acknowledged append was written in some round of some instance
        assertThat(rounds.get("written").asLong()).isPositive();
        assertThat(rounds.get("batches").asLong())
            .isGreaterThanOrEqualTo(row.get("loci").get("operations").asLong());
      }
      assertThat(json.get("catch_up").get("batches").asLong()).isPositive();
    }
  }
}
