package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.recall.RecallMode;
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

class RecallBenchmarkTest {
  @TempDir Path work;

  @Test
  void run_tinyCorpus_reportsEveryModeAndBothPeersAndCleansUp() throws IOException {
    RecallBenchmark.Options options =
        RecallBenchmark.Options.defaults()
            .withWorkDir(work.resolve("bench"))
            .withSizes(List.of(300))
            .withQueries(20)
            .withWarmup(5);
    ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    RecallBenchmark.Report report = RecallBenchmark.run(options, log);

    assertThat(report.sizes()).hasSize(1);
    RecallBenchmark.SizeResult s = report.sizes().get(0);
    assertThat(s.nodes()).isEqualTo(300);
    assertThat(s.edges()).isGreaterThan(300);
    assertThat(s.ingestSeconds()).isPositive();
    assertThat(s.reopenSeconds()).isPositive();
    assertThat(s.modes()).containsOnlyKeys(RecallMode.values());
    s.modes()
        .values()
        .forEach(
            l -> {
              assertThat(l.queries()).isEqualTo(20);
              assertThat(l.p50Micros()).isPositive().isLessThanOrEqualTo(l.p99Micros());
            });
    assertThat(s.lucene().queries()).isEqualTo(20);
    assertThat(s.scan().queries()).isEqualTo(20);
    assertThat(s.queryEmbedding().p50Micros()).isPositive();
    // below the HNSW threshold the embedding mode is an exact scan: it finds what the peer finds
    assertThat(s.embeddingRecall()).isEqualTo(1.0);

    // the palace peer: the three hybrids interleaved, and the sweeps over every memory
    assertThat(s.palace().plain().queries()).isEqualTo(20);
    assertThat(s.palace().lifecycle().queries()).isEqualTo(20);
    assertThat(s.palace().reinforce().queries()).isEqualTo(20);
    assertThat(s.palace().idleSweep().examined()).isEqualTo(300);
    assertThat(s.palace().idleSweep().transitions()).isEmpty();
    // after 200 days every memory no reinforce=true recall returned fades
    assertThat(s.palace().dueSweep().transitions()).isNotEmpty().hasSizeLessThan(300);

    String md = report.toMarkdown();
    assertThat(md)
        .contains("| 300 | ingest (`always`) |")
        .contains("| 300 | `hybrid` |")
        .contains("| 300 | `ppr` |")
        .contains("Loci / bare Lucene: p50 ")
        .contains("| 300 | exact vector scan |")
        .contains("| 300 | `hybrid` lifecycle-aware |")
        .contains("| 300 | `hybrid` reinforce=true |")
        .contains("| 300 | lifecycle sweep, all fading |");
    JsonNode json = new ObjectMapper().readTree(report.toJson());
    assertThat(json.path("benchmark").asText()).isEqualTo("recall");
    assertThat(json.path("sizes").path(0).path("modes").path("hybrid").path("p99_us").isNumber())
        .isTrue();
    assertThat(json.at("/sizes/0/palace/hybrid_lifecycle/p99_us").isNumber()).isTrue();
    assertThat(json.at("/sizes/0/palace/sweep_idle/examined").asInt()).isEqualTo(300);
    assertThat(logBytes.toString(StandardCharsets.UTF_8)).contains("reopened in");
    try (Stream<Path> left = Files.list(work.resolve("bench"))) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void options_badValues_areRejectedWithTheField() {
    RecallBenchmark.Options d = RecallBenchmark.Options.defaults();
    assertThatThrownBy(() -> d.withSizes(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sizes");
    assertThatThrownBy(() -> d.withSizes(List.of(99)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("found 99");
    assertThatThrownBy(() -> d.withQueries(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queries");
  }
}
