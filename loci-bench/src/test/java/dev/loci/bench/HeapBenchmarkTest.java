package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapBenchmarkTest {
  @TempDir Path work;

  private final PrintStream log =
      new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

  @Test
  void run_tracesAndPathways_reportsOneRowEachAndCleansUp() throws IOException {
    HeapBenchmark.Report report =
        HeapBenchmark.run(work.resolve("bench"), 1000, List.of("trace", "pathway"), log);

    assertThat(report.results())
        .extracting(HeapBenchmark.Result::records)
        .containsExactly(1000L, 1000L);
    assertThat(report.results().get(0).kind()).startsWith("trace");
    assertThat(report.results().get(1).kind()).startsWith("pathway trace");
    assertThat(report.toMarkdown().lines().filter(l -> l.startsWith("| "))).hasSize(1 + 2);
    assertThat(report.toJson()).contains("\"bytes_per_record\": ").doesNotContain("null");
    try (Stream<Path> left = Files.list(work.resolve("bench"))) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void run_unknownKind_rejectedNamingKinds() {
    assertThatThrownBy(() -> HeapBenchmark.run(work, 1000, List.of("trace", "edge"), log))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kinds")
        .hasMessageContaining("edge");
  }

  @Test
  void run_tooFewRecords_rejectedNamingRecords() {
    assertThatThrownBy(() -> HeapBenchmark.run(work, 999, List.of("trace"), log))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("records")
        .hasMessageContaining("999");
  }
}
