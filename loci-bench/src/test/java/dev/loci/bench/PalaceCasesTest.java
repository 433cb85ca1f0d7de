package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.RecallMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The palace fixtures ({@code dev/loci/bench/palace}: two documents of our own and a cases file
 * using every expectation field) run through {@code loci bench cases}' engine in every mode.
 */
class PalaceCasesTest {
  static final List<String> FILES =
      List.of("03_orders_runbook.md", "04_storage_agreement.md", "cases.json");

  @TempDir Path dir;

  private Path fixtures() throws IOException {
    Path docs = Files.createDirectories(dir.resolve("palace"));
    for (String f : FILES) {
      try (InputStream in = getClass().getResourceAsStream("palace/" + f)) {
        Files.copy(in, docs.resolve(f));
      }
    }
    return docs;
  }

  private CasesBenchmark.Report run(Path docs, Path cases) {
    return CasesBenchmark.run(
        new CasesBenchmark.Options(
            cases,
            docs,
            "markdown:runbook",
            List.of(RecallMode.values()),
            5,
            HashingEmbeddingProvider.create(),
            dir.resolve("work")),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
  }

  private static boolean family(
      CasesBenchmark.Report r, String caseId, RecallMode mode, String family) {
    return r.outcomes().get(caseId).get(mode.wireName()).families().get(family);
  }

  @Test
  void palaceCases_everyFamilyIsChecked_andPassesInTheModesThatCarryIt() throws IOException {
    Path docs = fixtures();
    CasesBenchmark.Report report = run(docs, docs.resolve("cases.json"));

    assertThat(report.families())
        .containsExactly(
            "evidence", "path", "structure", "trace", "snapshot", "route", "space", "lifecycle");
    // the depends_on chains are found as paths by the path-aware modes, not by the flat ones
    for (RecallMode m : List.of(RecallMode.WEIGHTED_GRAPH, RecallMode.PPR)) {
      assertThat(report.familyRate("path", m)).as(m.wireName()).isEqualTo(1.0);
      assertThat(report.passed(m)).as(m.wireName()).isEqualTo(6);
    }
    assertThat(report.familyRate("path", RecallMode.LEXICAL)).isZero();
    // only activation_spreading keeps a trace, and it stops below the threshold
    assertThat(report.familyRate("trace", RecallMode.ACTIVATION_SPREADING)).isEqualTo(1.0);
    assertThat(report.familyRate("trace", RecallMode.PPR)).isZero();
    assertThat(report.passed(RecallMode.ACTIVATION_SPREADING)).isEqualTo(5);
    assertThat(family(report, "activation-stops-below-threshold", RecallMode.PPR, "snapshot"))
        .isTrue();
    for (RecallMode m : RecallMode.values()) {
      for (String f : List.of("structure", "route", "space", "lifecycle")) {
        assertThat(report.familyRate(f, m)).as(m.wireName() + " " + f).isEqualTo(1.0);
      }
    }
    assertThat(report.toMarkdown())
        .contains("| **path hit rate** | 0.000 | 0.000 | 0.000 | 0.000 | 1.000 | 0.000 | 1.000 |")
        .contains("| contract-rule-and-its-override | PASS 2/2 |");
    JsonNode json = new ObjectMapper().readTree(report.toJson());
    assertThat(json.at("/modes/ppr/family_hit_rates/path").asDouble()).isEqualTo(1.0);
    JsonNode chain = json.at("/cases/1/modes/weighted_graph");
    assertThat(chain.path("passed").asBoolean()).isTrue();
    assertThat(chain.path("paths").toString())
        .contains(
            "04_storage_agreement:3 --depends_on--> 04_storage_agreement:2 --depends_on-->"
                + " 04_storage_agreement:1");
  }

  @Test
  void wrongExpectations_failTheirOwnFamily_andSayWhat() throws IOException {
    Path docs = fixtures();
    Path cases =
        Files.writeString(
            docs.resolve("wrong.json"),
            """
            [{"case_id": "wrong", "query": "Restart the queue consumers",
              "document": "03_orders_runbook.md",
              "expectation": {
                "required_contradiction_pairs": [["03_orders_runbook:3", "03_orders_runbook:4"]],
                "required_lifecycle_states": {"03_orders_runbook:3": "consolidated"},
                "required_space_ids": ["03_orders_runbook:escalate"],
                "route": ["03_orders_runbook:3", "03_orders_runbook:4"],
                "path": [{"node_id": "03_orders_runbook:3", "via_edge_type": "depends_on"}],
                "match_mode": "exact",
                "max_activation_trace_length": 1}}]
            """);
    CasesBenchmark.Report report = run(docs, cases);
    CaseJudge.Outcome o =
        report.outcomes().get("wrong").get(RecallMode.ACTIVATION_SPREADING.wireName());
    assertThat(o.passed()).isFalse();
    assertThat(o.families())
        .containsOnlyKeys("path", "structure", "trace", "route", "space", "lifecycle")
        .doesNotContainValue(true);
    assertThat(o.misses())
        .contains(
            "contradiction [03_orders_runbook:3, 03_orders_runbook:4]",
            "lifecycle 03_orders_runbook:3 encoded != consolidated",
            "space 03_orders_runbook:escalate",
            "route [03_orders_runbook:3, 03_orders_runbook:4]",
            "path (any, exact)");
  }

  @Test
  void read_badPathScope_namesTheCaseAndTheField() throws IOException {
    Path file =
        Files.writeString(
            dir.resolve("bad.json"),
            "[{\"case_id\": \"c9\", \"query\": \"q\", \"expectation\": {\"path\":"
                + " [{\"node_id\": \"a:1\"}], \"path_scope\": \"best\"}}]");
    assertThatThrownBy(() -> CasesBenchmark.read(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("case c9")
        .hasMessageContaining("path_scope best_path or any, found best");
    Path setup =
        Files.writeString(
            dir.resolve("setup.json"),
            "[{\"case_id\": \"c8\", \"query\": \"q\", \"setup\": [{\"advance\": \"soon\"}],"
                + " \"expectation\": {\"evidence_node_ids\": [\"a:1\"]}}]");
    assertThatThrownBy(() -> CasesBenchmark.read(setup))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("case c8: setup advance: expected an ISO-8601 duration");
  }
}
