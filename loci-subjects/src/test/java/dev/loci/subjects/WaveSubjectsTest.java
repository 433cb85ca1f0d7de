package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.VerifyReport;
import dev.loci.govern.Candidate;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.Extraction;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.govern.spi.ExtractionTarget;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.spi.SourceDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ingestion wave over a document about a person: the memory and entity candidates extracted from
 * its chunks name the document's subjects, are in the subject's manifest, and erasure leaves their
 * text in no journal line, index or extraction report, while a wave over another document keeps its
 * own.
 */
class WaveSubjectsTest {
  static final Namespace NS = Namespace.of("acme.hr");
  static final String ALICE = "subj-alice-w3";

  @TempDir Path dir;

  @Test
  void candidatesFromAChunkAboutSomeone_nameThem_andErasureScrubsTheReportToo() throws IOException {
    String wave;
    String otherWave;
    String entityId;
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      RecallMemory recall = RecallMemory.of(loci, HashingEmbeddingProvider.create());
      recall.ingest(
          NS,
          DomainPacks.named("markdown:contract"),
          new SourceDocument(
              "alice_review.md",
              "# Review\n\n## Decisions\n\n- We decided to move Quorvath to the night shift.\n\n"
                  + "## Parameters\n\nQuorvath overtime = 12 h\n",
              List.of(ALICE)),
          RecallMemory.Progress.NONE);
      recall.ingest(
          NS,
          DomainPacks.named("markdown:contract"),
          new SourceDocument("pump.md", "# Pump\n\nRated pressure = 16 bar\n", List.of()),
          RecallMemory.Progress.NONE);
      GovernedMemory gov = GovernedMemory.of(loci);
      GovernedRecall graph = GovernedRecall.of(gov, GovernedEntities.of(loci), recall);
      Extraction x = graph.extractIngested(NS, List.of("alice_review.md"), ExtractionTarget.BOTH);
      wave = x.wave().orElseThrow();
      List<Entity> entities = x.candidates().stream().flatMap(c -> c.entity().stream()).toList();
      assertThat(entities)
          .isNotEmpty()
          .allSatisfy(e -> assertThat(e.subjectIds()).containsExactly(ALICE));
      assertThat(x.candidates().stream().flatMap(c -> c.memory().stream()))
          .allSatisfy(m -> assertThat(m.subjectIds()).containsExactly(ALICE));
      entityId = entities.get(0).id();
      assertThat(recall.node(NS, "entity:" + entityId).orElseThrow().subjectIds())
          .containsExactly(ALICE);
      Extraction other = graph.extractIngested(NS, List.of("pump.md"), ExtractionTarget.BOTH);
      otherWave = other.wave().orElseThrow();
      assertThat(other.candidates()).extracting(Candidate::id).isNotEmpty();
      assertThat(Subjects.of(loci).manifest(ALICE, NamespaceScope.of("acme.*")).records())
          .extracting(r -> r.id())
          .contains(entityId, "entity:" + entityId);
    }
    assertThat(report(wave)).contains("Quorvath");

    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      Subjects.of(loci)
          .erase(new LegalCapability("dpo@acme"), NamespaceScope.of("acme.*"), NS, ALICE, "r 7");
      Entity erased = GovernedEntities.of(loci).get(NS, entityId);
      assertThat(erased.name()).isEqualTo("[erased]");
      assertThat(erased.status()).isEqualTo(EntityStatus.INVALID);
      assertThat(erased.subjectIds()).isEmpty();
    }
    assertThat(report(wave))
        .doesNotContain("Quorvath")
        .doesNotContain("alice_review.md"); // ids stay
    assertThat(report(otherWave)).contains("Rated pressure");
    assertThat(filesContaining("Quorvath")).isEmpty();
    assertThat(filesContaining("quorvath")).as("index terms are lower case").isEmpty();
    assertThat(filesContaining(ALICE)).isEmpty();
    VerifyReport verify = Loci.verify(dir);
    assertThat(verify.ok()).as("verify: %s", verify.damage()).isTrue();
  }

  private String report(String wave) throws IOException {
    return Files.readString(
        dir.resolve("extraction-reports").resolve(wave).resolve("report.json"),
        StandardCharsets.UTF_8);
  }

  private List<Path> filesContaining(String text) throws IOException {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> SubjectsTest.indexOf(read(f), needle) >= 0)
          .toList();
    }
  }

  private static byte[] read(Path f) {
    try {
      return Files.readAllBytes(f);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
