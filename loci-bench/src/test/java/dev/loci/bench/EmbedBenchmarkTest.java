package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
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
  void report_ratiosAreToTheSmallestOnnxBatch() {
    EmbedBenchmark.Options options = new EmbedBenchmark.Options(Path.of("w"), 100, List.of(1, 32));
    EmbedBenchmark.Report report =
        new EmbedBenchmark.Report(
            MACHINE,
            options,
            20,
            1.5,
            List.of(
                new EmbedBenchmark.Row("hashing", 0, 100, 0.01),
                new EmbedBenchmark.Row("onnx", 32, 100, 1),
                new EmbedBenchmark.Row("onnx", 1, 100, 4)));

    assertThat(report.toMarkdown())
        .contains("100 texts of 20.0 words on average; all-MiniLM-L6-v2 loaded in 1.50 s.")
        .contains("| hashing | - | 10,000 | 400.00x |")
        .contains("| onnx | 32 | 100 | 4.00x |")
        .contains("| onnx | 1 | 25 | 1.00x |");
    assertThat(report.toJson())
        .contains("\"benchmark\": \"embed\"")
        .contains("{\"name\": \"onnx\", \"batch_size\": 1, \"texts\": 100, \"seconds\": 4,");
  }

  @Test
  void options_batchSizeZero_refused() {
    assertThatThrownBy(() -> new EmbedBenchmark.Options(Path.of("w"), 10, List.of(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0]");
  }
}
