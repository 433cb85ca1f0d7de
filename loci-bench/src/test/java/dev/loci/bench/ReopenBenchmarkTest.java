package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReopenBenchmarkTest {
  @TempDir Path work;

  @Test
  void run_tinyStores_timesEachOpenAndKeepsTheStoresForTheNextRun() {
    ReopenBenchmark.Options options = new ReopenBenchmark.Options(work, 2_000, 1_000, 1);
    ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    ReopenBenchmark.Report report = ReopenBenchmark.run(options, log);

    assertThat(report.opens())
        .extracting(o -> o.store() + " " + o.mode())
        .containsExactly("nodes replay", "nodes snapshot", "traces replay");
    for (ReopenBenchmark.Open o : report.opens()) {
      assertThat(o.wallSeconds()).isPositive();
      assertThat(o.threadCpuSeconds()).isPositive();
    }
    assertThat(report.toMarkdown()).contains("| 2,000 nodes | snapshot |");
    assertThat(report.toJson()).contains("\"thread_cpu_seconds\"");
    assertThat(logBytes.toString(StandardCharsets.UTF_8)).contains("built 2,000 nodes");
    assertThat(work.resolve("reopen-nodes-2000/snapshots")).isDirectory();
    assertThat(work.resolve("reopen-nodes-2000/snapshots-aside")).doesNotExist();

    ByteArrayOutputStream again = new ByteArrayOutputStream();
    ReopenBenchmark.run(options, new PrintStream(again, true, StandardCharsets.UTF_8));
    assertThat(again.toString(StandardCharsets.UTF_8)).doesNotContain("built");
    assertThat(Files.exists(work.resolve("reopen-traces-1000/built"))).isTrue();
  }

  @Test
  void options_tooFewNodes_rejectedNamingNodes() {
    assertThatThrownBy(() -> new ReopenBenchmark.Options(work, 10, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes");
  }
}
