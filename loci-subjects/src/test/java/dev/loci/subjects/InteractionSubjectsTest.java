package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.VerifyReport;
import dev.loci.govern.Extraction;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.Memory;
import dev.loci.govern.spi.ExtractionTarget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A captured interaction is the rawest personal data the governed layer keeps: when it names
 * subjects, it and the memory candidates extracted from it are in their manifest, and erasure
 * leaves no byte of its text, its speaker or what was extracted from it in any file.
 */
class InteractionSubjectsTest {
  static final Namespace NS = Namespace.of("acme.chat");
  static final String ALICE = "subj-alice-i9";

  @TempDir Path dir;

  @Test
  void capturedInteraction_namingASubject_isInTheManifest_andErasedWithNoByteLeft()
      throws IOException {
    String interactionId;
    String otherId;
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      GovernedMemory gov = GovernedMemory.of(loci);
      Extraction x =
          gov.capture(
              NS,
              "My name is Alice Quennerby. I prefer oolong tea with breakfast.",
              "Quennerby",
              Optional.empty(),
              List.of(ALICE),
              ExtractionTarget.BOTH);
      interactionId = x.interaction().orElseThrow().id();
      assertThat(x.interaction().orElseThrow().subjectIds()).containsExactly(ALICE);
      List<Memory> extracted = x.candidates().stream().flatMap(c -> c.memory().stream()).toList();
      assertThat(extracted).as("identity and preference candidates").hasSizeGreaterThanOrEqualTo(2);
      assertThat(extracted).allSatisfy(m -> assertThat(m.subjectIds()).containsExactly(ALICE));
      otherId =
          gov.capture(
                  NS,
                  "I prefer the staging cluster for load tests.",
                  "ops",
                  Optional.empty(),
                  ExtractionTarget.BOTH)
              .interaction()
              .orElseThrow()
              .id();
    }
    assertThat(filesContaining("Quennerby")).as("written before").isNotEmpty();

    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      Subjects subjects = Subjects.of(loci);
      var manifest = subjects.manifest(ALICE, NamespaceScope.of("acme.*"));
      assertThat(manifest.countsByKind()).containsKeys("interaction", "memory");
      assertThat(manifest.records()).extracting(r -> r.id()).contains(interactionId);

      subjects.erase(
          new LegalCapability("dpo@acme"), NamespaceScope.of("acme.*"), NS, ALICE, "request 31");

      GovernedMemory gov = GovernedMemory.of(loci);
      var erased = gov.interaction(NS, interactionId);
      assertThat(erased.text()).isEqualTo("[erased]");
      assertThat(erased.speaker()).isEqualTo("[erased]");
      assertThat(erased.subjectIds()).isEmpty();
      assertThat(gov.interaction(NS, otherId).text()).contains("staging cluster");
    }
    for (String secret : List.of("Quennerby", "oolong", ALICE)) {
      assertThat(filesContaining(secret)).as("files holding %s", secret).isEmpty();
    }
    assertThat(filesContaining("staging cluster")).isNotEmpty();
    VerifyReport verify = Loci.verify(dir);
    assertThat(verify.ok()).as("verify: %s", verify.damage()).isTrue();

    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      assertThat(GovernedMemory.of(loci).interaction(NS, interactionId).text())
          .isEqualTo("[erased]");
      assertThat(Subjects.of(loci).manifest(ALICE, NamespaceScope.of("acme.*")).records())
          .isEmpty();
    }
  }

  @Test
  void badSubjectIds_onCapture_areRefusedNamingTheField_andNothingIsWritten() {
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      GovernedMemory gov = GovernedMemory.of(loci);
      long before = loci.lastSeq();
      assertThatThrownBy(
              () ->
                  gov.capture(
                      NS,
                      "I prefer tea",
                      "a",
                      Optional.empty(),
                      List.of("p1", "p1"),
                      ExtractionTarget.BOTH))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("subject_ids[1]");
      assertThat(loci.lastSeq()).isEqualTo(before);
      assertThat(gov.candidates(NS)).isEmpty();
    }
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
