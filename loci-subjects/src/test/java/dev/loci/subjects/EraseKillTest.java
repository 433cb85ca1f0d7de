package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.ChildJvm;
import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.VerifyReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process with SIGKILL while it erases a subject, at different points, and after: the
 * reopened directory holds either the subject untouched or the subject erased with no byte of it in
 * any file (an erasure cut short is completed on open), the other subject's records always intact,
 * and {@code verify} clean.
 */
class EraseKillTest {
  static final Namespace NS = Namespace.of("clinic.ward");
  static final String ALICE = "pat-alice-77";
  static final String BOB = "pat-bob-31";
  static final int RECORDS = 1500;

  @TempDir Path tmp;

  static Loci open(Path dir) {
    return Loci.builder().dataDir(dir).segmentBytes(64 * 1024).snapshotAfter(0).open();
  }

  private static void seed(Path dir) {
    try (Loci loci =
        Loci.builder().dataDir(dir).segmentBytes(64 * 1024).durability(Durability.none()).open()) {
      for (int i = 0; i < RECORDS; i++) {
        loci.traces()
            .add(
                NS,
                "{\"subject_ids\":[\"" + ALICE + "\"],\"n\":\"ALPHA-SECRET-" + i + "\"}",
                List.of());
        loci.traces()
            .add(
                NS,
                "{\"subject_ids\":[\"" + BOB + "\"],\"n\":\"BRAVO-KEEP-" + i + "\"}",
                List.of());
      }
      loci.snapshot();
    }
  }

  /**
   * Kills the erasing child at a spread of points (ticks printed after START, a millisecond apart)
   * and once after it acknowledged; at least one kill must land between the durable intent and its
   * completion, or the spread missed the erasure and the test says so.
   */
  @Test
  void kill9_duringOrAfterErasure_leavesTheOldOrTheNewState_andAReopenCompletesIt()
      throws Exception {
    int cutShort = 0;
    int run = 0;
    for (int ticks : new int[] {0, 40, 80, 120, 160, 220, 300, 400, 600, -1}) {
      Path dir = tmp.resolve("data-" + run++);
      seed(dir);
      List<String> lines =
          ticks < 0
              ? runUntilDone(dir)
              : ChildJvm.runAndKill(
                  tmp, EraseCrashChild.class, 1 + ticks, 90, dir.toString(), ALICE);
      if (checkAfterKill(dir, lines)) {
        cutShort++;
      }
    }
    // a loaded machine shifts the erasure later: try more points before calling the spread a miss
    for (int ticks : new int[] {180, 260, 350, 500, 800, 1200}) {
      if (cutShort > 0) {
        break;
      }
      Path dir = tmp.resolve("data-" + run++);
      seed(dir);
      List<String> lines =
          ChildJvm.runAndKill(tmp, EraseCrashChild.class, 1 + ticks, 90, dir.toString(), ALICE);
      if (checkAfterKill(dir, lines)) {
        cutShort++;
      }
    }
    assertThat(cutShort).as("kills that landed inside an erasure").isPositive();
  }

  /** Checks the invariants after a kill; returns whether the kill cut an erasure short. */
  private boolean checkAfterKill(Path dir, List<String> lines) throws IOException {
    boolean acknowledged = lines.contains("DONE");
    Path intents = dir.resolve("subjects").resolve("erasures");
    boolean cutShort;
    try (Stream<Path> left = Files.isDirectory(intents) ? Files.list(intents) : Stream.empty()) {
      cutShort = left.findAny().isPresent();
    }

    boolean erased;
    try (Loci loci = open(dir)) {
      Subjects subjects = Subjects.of(loci);
      SubjectManifest alice = subjects.manifest(ALICE, NamespaceScope.of("clinic.*"));
      if (alice.erasure().isPresent()) {
        assertThat(alice.records()).isEmpty();
      } else {
        assertThat(acknowledged).as("an acknowledged erasure is never lost").isFalse();
        assertThat(alice.records()).hasSize(RECORDS);
      }
      assertThat(subjects.manifest(BOB, NamespaceScope.of("clinic.*")).records()).hasSize(RECORDS);
      assertThat(subjects.verifyAudit(java.util.Optional.empty()).problems()).isEmpty();
      erased = alice.erasure().isPresent();
    }
    if (erased) {
      assertThat(filesContaining(dir, "ALPHA-SECRET")).isEmpty();
      assertThat(filesContaining(dir, ALICE)).isEmpty();
    }
    assertThat(filesContaining(dir, "BRAVO-KEEP-" + (RECORDS - 1))).isNotEmpty();
    try (Stream<Path> left = Files.isDirectory(intents) ? Files.list(intents) : Stream.empty()) {
      assertThat(left.toList()).as("intents left after the reopen").isEmpty();
    }
    VerifyReport verify = Loci.verify(dir);
    assertThat(verify.ok()).as("verify: %s", verify.damage()).isTrue();
    return cutShort;
  }

  /** Runs the child until it acknowledged the erasure and ticked on, then kills it. */
  private List<String> runUntilDone(Path dir) throws Exception {
    List<String> lines =
        ChildJvm.runAndKill(tmp, EraseCrashChild.class, 2000, 90, dir.toString(), ALICE);
    assertThat(lines).as("the erasure was acknowledged within 2000 ticks").contains("DONE");
    return lines;
  }

  static List<Path> filesContaining(Path dir, String text) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(
              f -> {
                try {
                  return new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)
                      .contains(text);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .toList();
    }
  }
}
