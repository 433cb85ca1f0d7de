package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbedBenchmarkTest {
  private static final Machine MACHINE =
      new Machine(2, "cpu", "17", "Linux", "ext4", 1 << 30, 1.0, Instant.EPOCH);

  @Test
  void texts_sameSeed_sameSentencesOf6To40Words() {
    List<String> texts = EmbedBenchmark.texts(200, 42);

    assertThat(texts).isEqualTo(EmbedBenchmark.texts(200, 42)).doesNotHaveDuplicates();
    assertThat(texts).allSatisfy(t -> assertThat(t.split(" ").length).isBetween(6, 40));
  }

  @Test
  void report_ratiosAreToTheFirstOnnxRow_onWallAndCpuTime() {
    EmbedBenchmark.Options options =
        new EmbedBenchmark.Options(
            Path.of("w"), 100, List.of("bge-small-q", "bge-small"), List.of(16), 3, 10, false);
    EmbedBenchmark.Report report =
        new EmbedBenchmark.Report(
            MACHINE,
            options,
            20,
            Map.of("bge-small-en-v1.5-q", 1.5),
            List.of(
                new EmbedBenchmark.Row("hashing", 0, 100, 0.01, 0.01, 3),
                new EmbedBenchmark.Row("bge-small-q", 16, 100, 1, 2, 3),
                new EmbedBenchmark.Row("bge-small", 16, 100, 4, 5, 3)),
            List.of(
                new EmbedBenchmark.Row("write, then embed", 0, 10, 2, 2, 3),
                new EmbedBenchmark.Row("embed while writing", 0, 10, 1, 2, 3)));

    assertThat(report.toMarkdown())
        .contains(
            "100 texts of 20.0 words on average, median of 3 rounds taken in turn; loaded in"
                + " bge-small-en-v1.5-q 1.50 s.")
        .contains("| hashing | - | 10,000 | - | 100.00x | - | 3.0 |")
        .contains("| bge-small-q | 16 | 100 | 50 | 1.00x | 1.00x | 3.0 |")
        .contains("| bge-small | 16 | 25 | 20 | 0.25x | 0.40x | 3.0 |")
        .contains("| embed while writing | 10 | 1.00 | 2.00x | 3.0 |");
    assertThat(report.toJson())
        .contains("\"benchmark\": \"embed\"")
        .contains(
            "{\"name\": \"bge-small\", \"batch_size\": 16, \"texts\": 100, \"seconds\": 4,"
                + " \"cpu_seconds\": 5,");
  }

  @Test
  void median_isTheMiddleRoundByWallTime() {
    List<EmbedBenchmark.Row> rounds =
        List.of(
            new EmbedBenchmark.Row("a", 1, 10, 3, 1, 0),
            new EmbedBenchmark.Row("a", 1, 10, 1, 1, 0),
            new EmbedBenchmark.Row("a", 1, 10, 2, 1, 0));
    assertThat(EmbedBenchmark.median(rounds).seconds()).isEqualTo(2);
  }

  @Test
  void options_unknownModel_refusedNamingModels() {
    assertThatThrownBy(
            () ->
                new EmbedBenchmark.Options(
                    Path.of("w"), 10, List.of("gpt"), List.of(1), 1, 0, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("models")
        .hasMessageContaining("gpt");
  }

  @Test
  void options_batchSizeZero_refused() {
    assertThatThrownBy(
            () ->
                new EmbedBenchmark.Options(
                    Path.of("w"), 10, List.of("onnx"), List.of(0), 1, 0, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0]");
  }
}
