package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.recall.DemoCorpus;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.RecallMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CasesBenchmarkTest {
  @TempDir Path dir;

  /** The bundled demo documents and their cases file, written out as a user would have them. */
  private Path demo() throws IOException {
    Path docs = Files.createDirectories(dir.resolve("demo"));
    for (DemoCorpus.Document d : DemoCorpus.documents()) {
      Files.writeString(docs.resolve(d.document().path()), d.document().text());
    }
    Files.writeString(docs.resolve(DemoCorpus.CASES), DemoCorpus.casesJson());
    return docs;
  }

  @Test
  void run_demoCases_graphModesPassWhereLexicalMissesTheSecondPieceOfEvidence() throws IOException {
    Path docs = demo();
    CasesBenchmark.Options options =
        new CasesBenchmark.Options(
            docs.resolve(DemoCorpus.CASES),
            docs,
            "markdown:contract",
            List.of(RecallMode.LEXICAL, RecallMode.STRUCTURE_ONLY, RecallMode.WEIGHTED_GRAPH),
            5,
            HashingEmbeddingProvider.create(),
            dir.resolve("work"));

    CasesBenchmark.Report report =
        CasesBenchmark.run(
            options, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    assertThat(report.cases()).hasSize(DemoCorpus.questions().size());
    assertThat(report.passed(RecallMode.WEIGHTED_GRAPH)).isEqualTo(report.cases().size());
    assertThat(report.hitRate(RecallMode.WEIGHTED_GRAPH)).isEqualTo(1.0);
    // lexical passes only the single-hop case: the second piece of evidence shares no word
    assertThat(report.passed(RecallMode.LEXICAL)).isEqualTo(1);
    // structure_only finds both steps but not through the references edge the case requires
    CaseJudge.Outcome restart =
        report.outcomes().get("runbook-restart-not-helping").get("structure_only");
    assertThat(restart.found()).hasSize(2);
    assertThat(restart.edgeTypes()).doesNotContain("references");
    assertThat(restart.passed()).isFalse();
    assertThat(report.toMarkdown())
        .contains("| contract-invoice-terms | PASS 1/1 | PASS 1/1 | PASS 1/1 |")
        .contains("| **passed** | 1/5 | 3/5 | 5/5 |");
    // clause 4 overrides clause 3 with "unless": structure_only reaches it as the contradiction
    // of clause 3 rather than through the exception_to edge the case requires
    CaseJudge.Outcome late = report.outcomes().get("contract-late-delivery").get("structure_only");
    assertThat(late.found()).hasSize(2);
    assertThat(late.edgeTypes()).contains("contradicts").doesNotContain("exception_to");
    JsonNode json = new ObjectMapper().readTree(report.toJson());
    assertThat(json.path("modes").path("weighted_graph").path("passed").asInt()).isEqualTo(5);
    assertThat(json.path("cases").get(0).path("modes").path("lexical").path("passed").asBoolean())
        .isFalse();
  }

  @Test
  void read_minimumAboveTheEvidenceCount_isRefusedNamingTheCase() throws IOException {
    Path file =
        Files.writeString(
            dir.resolve("bad.json"),
            "[{\"case_id\": \"c1\", \"query\": \"q\", \"expectation\": {\"evidence_node_ids\":"
                + " [\"a:1\"], \"minimum_evidence_matches\": 2}}]");

    assertThatThrownBy(() -> CasesBenchmark.read(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("case c1")
        .hasMessageContaining("minimum_evidence_matches of 1 to 1, found 2");
  }

  @Test
  void read_repeatedCaseId_isRefused() throws IOException {
    String one =
        "{\"case_id\": \"c1\", \"query\": \"q\", \"expectation\": {\"evidence_node_ids\":"
            + " [\"a:1\"]}}";
    Path file =
        Files.writeString(dir.resolve("dup.json"), "{\"cases\": [" + one + ", " + one + "]}");

    assertThatThrownBy(() -> CasesBenchmark.read(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("case_id c1 repeats");
  }
}
