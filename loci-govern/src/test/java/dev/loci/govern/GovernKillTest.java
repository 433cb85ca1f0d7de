package dev.loci.govern;

import static dev.loci.ChildJvm.daemon;
import static dev.loci.ChildJvm.print;
import static dev.loci.ChildJvm.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.ChildJvm;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.VerifyReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a process that proposes and promotes memories, captures interactions and promotes the
 * entities extracted from them, and sets trusted state from several threads with SIGKILL, then
 * checks that the reopened store holds every acknowledged transition.
 */
class GovernKillTest {
  private static final Namespace NS = Namespace.of("crash.govern");
  private static final int THREADS = 3;

  @TempDir Path tmp;

  /** The child: three writers proposing, promoting every other one, and setting state. */
  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    long snapshotMillis = Long.parseLong(args[1]);
    PrintStream out = ChildJvm.start(4);
    Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open();
    GovernedMemory gov = GovernedMemory.of(loci);
    Reviewer reviewer = new Reviewer("kill-test");
    print(out, "READY");
    if (snapshotMillis > 0) {
      daemon(
          "snapshots",
          () -> {
            while (true) {
              sleep(snapshotMillis);
              loci.snapshot();
            }
          });
    }
    for (int w = 0; w < THREADS; w++) {
      int writer = w;
      daemon(
          "writer-" + w,
          () -> {
            try {
              for (int i = 0; ; i++) {
                MemoryDraft d =
                    MemoryDraft.of(MemoryType.KNOWLEDGE, "fact " + writer + "-" + i, "child")
                        .withSlot("s" + writer + "-" + (i % 7));
                String id = gov.propose(NS, d).memory().id();
                print(out, "P " + id + " .");
                if (i % 2 == 0) {
                  gov.promote(NS, id, reviewer);
                  print(out, "A " + id + " .");
                }
                if (i % 3 == 0) {
                  Extraction x =
                      gov.capture(
                          NS,
                          "Part " + writer + "-" + i + " mass = " + (i + 1) + " kg",
                          "child",
                          Optional.empty(),
                          dev.loci.govern.spi.ExtractionTarget.ENTITIES);
                  String entity = x.candidates().get(0).id();
                  print(out, "C " + x.interaction().orElseThrow().id() + " " + entity + " .");
                  gov.promoteCandidate(NS, entity, reviewer);
                  print(out, "E " + entity + " .");
                }
                if (i % 5 == 0) {
                  gov.setState(NS, "k" + writer, "v" + i, reviewer);
                  print(out, "S k" + writer + " v" + i + " .");
                }
              }
            } catch (RuntimeException e) {
              print(out, "ERR writer " + writer + ": " + e);
              Runtime.getRuntime().halt(3);
            }
          });
    }
    sleep(120_000);
  }

  @ParameterizedTest(name = "snapshot every {0} ms")
  @ValueSource(longs = {0, 40})
  void kill9_losesNoAcknowledgedProposalPromotionCaptureOrState(long snapshotMillis)
      throws Exception {
    Path dir = tmp.resolve("data");
    List<String> lines =
        ChildJvm.runAndKill(
            tmp, GovernKillTest.class, 301, 60, dir.toString(), Long.toString(snapshotMillis));
    List<String> proposed = new ArrayList<>();
    List<String> promoted = new ArrayList<>();
    Map<String, String> state = new LinkedHashMap<>();
    Map<String, String> captured = new LinkedHashMap<>();
    List<String> entities = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (String line : lines) {
      String[] p = line.split(" ");
      if (p[0].equals("P") && p.length == 3 && p[2].equals(".")) {
        proposed.add(p[1]);
      } else if (p[0].equals("A") && p.length == 3 && p[2].equals(".")) {
        promoted.add(p[1]);
      } else if (p[0].equals("S") && p.length == 4 && p[3].equals(".")) {
        state.put(p[1], p[2]);
      } else if (p[0].equals("C") && p.length == 4 && p[3].equals(".")) {
        captured.put(p[1], p[2]);
      } else if (p[0].equals("E") && p.length == 3 && p[2].equals(".")) {
        entities.add(p[1]);
      } else if (!line.equals("READY")) {
        errors.add(line);
      }
    }
    assertThat(errors).isEmpty();
    assertThat(proposed).hasSizeGreaterThan(100);
    assertThat(promoted).isNotEmpty();
    assertThat(entities).isNotEmpty();

    VerifyReport verify = Loci.verify(dir);
    assertThat(verify.ok()).as("verify after the kill: %s", verify.damage()).isTrue();
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      GovernedMemory gov = GovernedMemory.of(loci);
      for (String id : proposed) {
        assertThat(gov.get(NS, id).status()).isIn(MemoryStatus.CANDIDATE, MemoryStatus.ACTIVE);
      }
      for (String id : promoted) {
        assertThat(gov.get(NS, id).status()).as(id).isEqualTo(MemoryStatus.ACTIVE);
      }
      // the last acknowledged value of each key, or one written after it before the kill
      state.forEach(
          (key, value) -> {
            int acked = Integer.parseInt(value.substring(1));
            String now = gov.state(NS, key).orElseThrow().value();
            assertThat(Integer.parseInt(now.substring(1))).as(key).isGreaterThanOrEqualTo(acked);
          });
      GovernedEntities ents = GovernedEntities.of(loci);
      captured.forEach(
          (interaction, entity) -> {
            assertThat(gov.interaction(NS, interaction).text()).startsWith("Part ");
            assertThat(ents.get(NS, entity).provenance().sourceInteraction()).contains(interaction);
          });
      for (String id : entities) {
        assertThat(ents.get(NS, id).status()).as(id).isEqualTo(EntityStatus.ACTIVE);
      }
      assertThat(gov.conflicts(NS, Optional.empty())).isNotNull();
    }
  }
}
