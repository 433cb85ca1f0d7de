package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.PathwayVec;
import dev.loci.pathway.ScoredTrace;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathwayBenchmarkTest {
  @TempDir Path work;

  @Test
  void run_tinyOptions_reportsEveryFigureWithRecallOneAndCleansUp() throws IOException {
    PathwayBenchmark.Options options =
        PathwayBenchmark.Options.defaults()
            .withWorkDir(work.resolve("bench"))
            .withSizes(List.of(500))
            .withWriterCounts(List.of(1, 8))
            .withInserts(100)
            .withQueries(List.of(30))
            .withJitWarmupTraces(200);
    ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    PathwayBenchmark.Report report = PathwayBenchmark.run(options, log);

    assertThat(report.options()).isEqualTo(options);
    assertThat(report.sizes()).hasSize(1);
    PathwayBenchmark.SizeResult s = report.sizes().get(0);
    assertThat(s.traces()).isEqualTo(500);
    assertThat(s.imported()).isEqualTo(300);
    assertThat(s.pathways()).isPositive().isLessThanOrEqualTo(500);
    assertThat(s.importSeconds()).isPositive();
    assertThat(s.journalBytes()).isPositive();
    assertThat(s.inserts())
        .extracting(PathwayBenchmark.InsertResult::writers)
        .containsExactly(1, 8);
    assertThat(s.inserts())
        .extracting(PathwayBenchmark.InsertResult::storeTraces)
        .containsExactly(300L, 400L);
    for (PathwayBenchmark.InsertResult i : s.inserts()) {
      assertThat(i.throughput().operations()).isEqualTo(100);
      assertThat(i.throughput().perSecond()).isPositive().isFinite();
    }
    for (PathwayBenchmark.QueryResult q : List.of(s.hotswap(), s.byVec())) {
      assertThat(q.recall()).isEqualTo(1.0);
      assertThat(q.loci().p50Micros()).isPositive().isLessThanOrEqualTo(q.loci().p99Micros());
      assertThat(q.scan().p50Micros()).isPositive().isLessThanOrEqualTo(q.scan().p99Micros());
      assertThat(q.ratio()).isPositive().isFinite();
    }
    assertThat(s.hotswap().k()).isEqualTo(5);
    assertThat(s.hotswap().loci().queries()).isEqualTo(60);
    assertThat(s.hotswap().sameOrder()).isEqualTo(60);
    assertThat(s.byVec().k()).isEqualTo(10);
    assertThat(s.byVec().loci().queries()).isEqualTo(30);
    assertThat(s.byVec().sameOrder()).isBetween(0, 30);
    assertThat(s.byVec().maxTieGap()).isBetween(0.0, PathwayBenchmark.SCORE_TOLERANCE);
    assertThat(s.lociHeapBytes()).isPositive();

    String md = report.toMarkdown();
    assertThat(md)
        .contains("| 500 | Population: `importRustState` |")
        .contains("| 500 | `insert`, `always`, 1 writer |")
        .contains("| 500 | `insert`, `always`, 8 writers |")
        .contains("| 500 | `query_for_hotswap`, Loci |")
        .contains("| 500 | `query_for_hotswap`, exact scan |")
        .contains("| 500 | `query_by_vec`, Loci |")
        .contains("| 500 | `query_by_vec`, exact scan |")
        .contains("| 500 | `query_by_vec`, scan p50 / Loci p50 |")
        .contains("recall 1.0");
    assertThat(md.lines().filter(l -> l.startsWith("| "))).hasSize(1 + 1 + 2 + 3 + 3 + 1);

    JsonNode json = new ObjectMapper().readTree(report.toJson());
    assertThat(json.path("benchmark").asText()).isEqualTo("pathway");
    JsonNode size = json.path("sizes").path(0);
    assertThat(size.path("traces").asInt()).isEqualTo(500);
    assertThat(size.path("inserts")).hasSize(2);
    assertThat(size.path("query_by_vec").path("recall").asDouble()).isEqualTo(1.0);
    assertThat(size.path("query_by_vec").path("loci").path("p99_us").isNumber()).isTrue();
    assertThat(size.path("query_for_hotswap").path("ratio_p50").isNumber()).isTrue();
    assertThat(report.toJson()).doesNotContain("null");

    assertThat(logBytes.toString(StandardCharsets.UTF_8))
        .contains("JIT warm-up: a store of 200 traces")
        .contains("insert always, 8 writers into a store of 400");
    try (Stream<Path> left = Files.list(work.resolve("bench"))) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void checkTopK_scoreThatIsNotTheBest_failsNamingTheQuery() {
    BenchPathways data = new BenchPathways(7);
    PathwayTrace a = data.stored(0);
    PathwayTrace b = data.stored(1);
    PathwayVec query = a.pathwayVec();
    List<ScoredTrace> exact = List.of(new ScoredTrace(a, a.pathwayVec().cosine(query)));
    List<ScoredTrace> wrong = List.of(new ScoredTrace(b, b.pathwayVec().cosine(query)));

    assertThat(PathwayQueries.checkTopK(3, query, exact, exact))
        .isEqualTo(new PathwayQueries.TopKCheck(1.0, 0));
    assertThat(a.pathwayVec().cosine(query)).isGreaterThan(b.pathwayVec().cosine(query) + 1e-3);
    assertThatThrownBy(() -> PathwayQueries.checkTopK(3, query, wrong, exact))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("query_by_vec query 3")
        .hasMessageContaining("at position 0");
  }

  @Test
  void checkTopK_sameTraceTwice_fails() {
    BenchPathways data = new BenchPathways(7);
    PathwayTrace a = data.stored(0);
    PathwayVec query = a.pathwayVec();
    ScoredTrace hit = new ScoredTrace(a, 1.0);

    assertThatThrownBy(
            () -> PathwayQueries.checkTopK(0, query, List.of(hit, hit), List.of(hit, hit)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("twice");
  }

  @Test
  void drafts_sameSeedAndNumber_areEqual() {
    BenchPathways one = new BenchPathways(42);
    BenchPathways two = new BenchPathways(42);
    for (long i = 0; i < 50; i++) {
      assertThat(two.stored(i)).isEqualTo(one.stored(i));
      assertThat(two.draft(i).build()).isEqualTo(one.draft(i).build());
    }
    assertThat(new BenchPathways(43).stored(0)).isNotEqualTo(one.stored(0));
  }

  @Test
  void stateJson_holdsEveryTraceInItsPathwaysBucket() throws IOException {
    BenchPathways data = new BenchPathways(42);
    List<PathwayTrace> sunk = new ArrayList<>();
    JsonNode pathways =
        new ObjectMapper().readTree(data.stateJson(0, 20, sunk::add)).path("pathways");

    assertThat(sunk).hasSize(20);
    int traces = 0;
    for (Map.Entry<String, JsonNode> bucket : pathways.properties()) {
      for (JsonNode t : bucket.getValue()) {
        assertThat(t.path("pathway_id").asText()).isEqualTo(bucket.getKey());
        traces++;
      }
    }
    assertThat(traces).isEqualTo(20);
  }

  @Test
  void options_badValues_areRejectedWithTheField() {
    PathwayBenchmark.Options d = PathwayBenchmark.Options.defaults();
    assertThatThrownBy(() -> d.withSizes(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sizes");
    assertThatThrownBy(() -> d.withSizes(List.of(10_000, 99)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("found 99");
    assertThatThrownBy(() -> d.withWriterCounts(List.of(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("writer count");
    assertThatThrownBy(() -> d.withInserts(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inserts");
    assertThatThrownBy(() -> d.withQueries(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queries");
    assertThatThrownBy(() -> d.withQueries(List.of(10, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("query count")
        .hasMessageContaining("found 0");
    assertThatThrownBy(() -> d.withJitWarmupTraces(50))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jitWarmupTraces");
  }

  @Test
  void defaults_matchTheIssue() {
    PathwayBenchmark.Options d = PathwayBenchmark.Options.defaults();
    assertThat(d.sizes()).containsExactly(10_000, 1_000_000);
    assertThat(d.writerCounts()).containsExactly(1, 8);
    assertThat(d.vecQueriesAt(0)).isEqualTo(1_000);
    assertThat(d.hotswapQueriesAt(0)).isEqualTo(2_000);
    assertThat(d.vecQueriesAt(1)).isEqualTo(500);
    assertThat(d.vecQueriesAt(5)).isEqualTo(500);
    assertThat(d.insertsAt(1_000_000)).isEqualTo(10_000);
    assertThat(d.insertsAt(10_000)).isEqualTo(2_500);
  }
}
