package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubjectsBenchmarkTest {
  @TempDir Path work;

  @Test
  void run_tinyOptions_measuresBothConfigurations_erasesTheSubject_andCleansUp()
      throws IOException {
    PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    SubjectsBenchmark.Report r =
        SubjectsBenchmark.run(
            new SubjectsBenchmark.Options(work.resolve("bench"), 2_000, 50, 0.5), log);

    assertThat(r.without().operations()).isPositive();
    assertThat(r.with().operations()).isPositive();
    assertThat(r.ratio()).isPositive().isFinite();
    assertThat(r.auditEntries())
        .as("one entry per write with subjects")
        .isGreaterThanOrEqualTo(r.with().operations());
    assertThat(r.verifyRate()).isPositive();
    assertThat(r.erasure().records()).isEqualTo(50);
    assertThat(r.erasure().batchesRewritten()).isEqualTo(50);
    assertThat(r.toMarkdown()).contains("write-path cost of subjects").contains("erase 50 records");
    assertThat(r.toJson()).contains("\"erase_seconds\"");
    try (Stream<Path> left = Files.list(work.resolve("bench"))) {
      assertThat(left.toList()).as("scratch stores deleted").isEmpty();
    }
  }

  @Test
  void options_outOfRange_refused() {
    assertThatThrownBy(() -> new SubjectsBenchmark.Options(work, 10, 20, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SubjectsBenchmark.Options(work, 10, 5, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
