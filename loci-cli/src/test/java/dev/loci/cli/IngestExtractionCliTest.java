package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.Reviewer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loci ingest} running the ingestion wave {@code POST ingest} runs, from the command line.
 */
class IngestExtractionCliTest {
  private static final Namespace NS = Namespace.of("acme.pump");

  @TempDir Path tmp;

  private Path doc(String name, String constraint) throws Exception {
    Path p = tmp.resolve(name);
    Files.writeString(
        p,
        "# Spec\n\n## Constraints\n\n- "
            + constraint
            + "\n\n## Parameters\n\nFlow rate = 40 l/min\n");
    return p;
  }

  /** {@code loci [--json] ingest ... extra... doc}, as it ran. */
  private static CliRunner.Result run(CliRunner cli, boolean json, Path doc, String... extra) {
    List<String> args = new ArrayList<>(json ? List.of("--json") : List.of());
    args.addAll(
        List.of(
            "ingest", "--pack", "markdown:contract", "--ns", NS.value(), "--embedding", "hashing"));
    args.addAll(List.of(extra));
    args.add(doc.toString());
    return cli.run(args.toArray(String[]::new));
  }

  private static CliRunner.Result ingest(CliRunner cli, Path doc, String... extra) {
    CliRunner.Result r = run(cli, true, doc, extra);
    assertThat(r.exitCode()).as(r.err()).isZero();
    return r;
  }

  private static List<String> kinds(JsonNode wave) {
    List<String> out = new ArrayList<>();
    wave.get("candidates").forEach(c -> out.add(c.get("kind").asText()));
    return out;
  }

  @Test
  void ingest_runsTheWaveTheNamespaceAsksFor_andExtractOverridesIt() throws Exception {
    Path data = tmp.resolve("data");
    CliRunner cli = new CliRunner(data);
    JsonNode plain = ingest(cli, doc("a.md", "Noise must stay low")).json();
    assertThat(plain.get("items")).hasSize(1);
    assertThat(plain.get("extraction_waves")).isEmpty();

    try (Loci loci = Loci.builder().dataDir(data).open()) {
      GovernedMemory.of(loci)
          .setSetting(NS, GovernedMemory.EXTRACT_ON_INGEST, "both", new Reviewer("dpo"));
    }
    JsonNode waved = ingest(cli, doc("b.md", "Noise must not exceed 60 dB")).json();
    assertThat(waved.get("extraction_waves")).hasSize(1);
    JsonNode wave = waved.get("extraction_waves").get(0);
    assertThat(wave.get("namespace").asText()).isEqualTo(NS.value());
    assertThat(wave.get("chunks").asInt()).isPositive();
    assertThat(kinds(wave)).contains("memory", "entity");
    assertThat(data.resolve("extraction-reports").resolve(wave.get("wave").asText()))
        .isDirectoryContaining("glob:**/report.json");
    try (Loci loci = Loci.builder().dataDir(data).open()) {
      assertThat(
              GovernedMemory.of(loci)
                  .list(NS, Optional.empty(), Optional.of(MemoryStatus.CANDIDATE)))
          .isNotEmpty()
          .allMatch(m -> m.provenance().sourceChunk().isPresent());
    }

    assertThat(
            ingest(cli, doc("c.md", "Vibration shall not exceed 2 g"), "--extract", "off")
                .json()
                .get("extraction_waves"))
        .isEmpty();
    JsonNode only =
        ingest(cli, doc("d.md", "Pumps must be serviced yearly"), "--extract", "entities").json();
    assertThat(kinds(only.get("extraction_waves").get(0))).isNotEmpty().containsOnly("entity");

    CliRunner.Result text = run(cli, false, doc("e.md", "Seals must be replaced monthly"));
    assertThat(text.out()).containsPattern("extraction wave \\S+ in acme.pump: \\d+ chunks, ");
  }

  @Test
  void ingest_badExtract_namesTheOption_andWritesNothing() throws Exception {
    Path data = tmp.resolve("data");
    CliRunner cli = new CliRunner(data);
    CliRunner.Result bad =
        run(cli, false, doc("a.md", "Noise must stay low"), "--extract", "sometimes");
    assertThat(bad.exitCode()).isNotZero();
    assertThat(bad.err()).contains("--extract");
    assertThat(data.resolve("journal")).doesNotExist();
  }
}
