package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.ChildJvm;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.NamespaceScope;
import dev.loci.VerifyReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a process that inserts, revises and replays pathway traces from several threads with
 * SIGKILL, then checks that the reopened store holds every acknowledged write with its lifecycle
 * intact: each revision links both ways, each chain has one head, and the head counts at least
 * every acknowledged replay of its chain (at most one more per writer, the one in flight at the
 * kill).
 */
class PathwayKillTest {
  private static final LegalCapability LEGAL = new LegalCapability("test");
  static final int THREADS = 3;

  @TempDir Path tmp;

  /** What the killed child acknowledged. */
  record Acks(
      Map<String, String> inserted, Map<String, String> revised, Map<String, Integer> replays) {}

  @ParameterizedTest(name = "snapshot every {0} ms")
  @ValueSource(longs = {0, 40})
  void kill9_losesNoAcknowledgedInsertRevisionOrReplay(long snapshotMillis) throws Exception {
    Path dir = tmp.resolve("data");
    Acks acks = runAndKill(dir, snapshotMillis, 400, 60);
    assertThat(acks.inserted()).hasSizeGreaterThan(50);
    assertThat(acks.revised()).isNotEmpty();

    VerifyReport verify = Loci.verify(dir);
    assertThat(verify.ok()).as("verify after the kill: %s", verify.damage()).isTrue();

    Map<String, PathwayTrace> first = readAll(dir, acks);
    Map<String, PathwayTrace> second = readAll(dir, acks);
    assertThat(second).as("a second reopen reads the same state").isEqualTo(first);
  }

  /** Reopens {@code dir}, checks every acknowledgement, returns every trace read. */
  private static Map<String, PathwayTrace> readAll(Path dir, Acks acks) {
    Map<String, PathwayTrace> seen = new LinkedHashMap<>();
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      PathwayMemory pathways = PathwayMemory.of(loci);
      acks.inserted()
          .forEach(
              (uid, pathwayId) -> {
                PathwayTrace t = pathways.get(PathwayCrashWriter.NS, uid, LEGAL);
                assertThat(t.pathwayId()).as("pathway of %s", uid).isEqualTo(pathwayId);
                assertThat(t.version()).isEqualTo(1);
                assertThat(t.reducerSummary()).contains("[email]").doesNotContain("@example.com");
                seen.put(uid, t);
              });
      acks.revised()
          .forEach(
              (old, fresh) -> {
                PathwayTrace before = pathways.get(PathwayCrashWriter.NS, old, LEGAL);
                PathwayTrace after = pathways.get(PathwayCrashWriter.NS, fresh, LEGAL);
                assertThat(after.parentTraceUid()).as("parent of %s", fresh).contains(old);
                assertThat(before.supersededByTraceUid())
                    .as("successor of %s", old)
                    .contains(fresh);
                assertThat(after.version()).isEqualTo(before.version() + 1);
                assertThat(after.finalVerdict()).isEqualTo("revised " + old);
                seen.put(old, before);
                seen.put(fresh, after);
              });
      Map<String, Integer> ackedPerHead = new HashMap<>();
      acks.replays()
          .forEach(
              (uid, n) -> {
                String head = head(pathways, uid);
                ackedPerHead.merge(head, n, Integer::sum);
              });
      ackedPerHead.forEach(
          (head, n) -> {
            PathwayTrace t = pathways.get(PathwayCrashWriter.NS, head);
            assertThat(t.replayCount())
                .as("replays of the chain headed by %s", head)
                .isBetween(n, n + THREADS);
            assertThat(t.replaysSucceeded()).isEqualTo(t.replayCount());
            assertThat(t.retired()).isFalse();
          });
      PathwayStats stats = pathways.stats(NamespaceScope.of("crash.*"));
      assertThat(stats).isNotNull();
    }
    return seen;
  }

  private static String head(PathwayMemory pathways, String uid) {
    PathwayTrace t = pathways.get(PathwayCrashWriter.NS, uid, LEGAL);
    while (t.supersededByTraceUid().isPresent()) {
      t = pathways.get(PathwayCrashWriter.NS, t.supersededByTraceUid().get(), LEGAL);
    }
    return t.traceUid();
  }

  /**
   * Runs {@link PathwayCrashWriter}, kills it with SIGKILL once it has printed {@code killAfter}
   * lines, and parses the complete lines it printed.
   */
  private Acks runAndKill(Path dir, long snapshotMillis, int killAfter, long timeoutSeconds)
      throws IOException, InterruptedException {
    List<String> lines =
        ChildJvm.runAndKill(
            tmp,
            PathwayCrashWriter.class,
            killAfter + 1, // READY first
            timeoutSeconds,
            dir.toString(),
            Integer.toString(THREADS),
            Long.toString(snapshotMillis));
    Map<String, String> inserted = new LinkedHashMap<>();
    Map<String, String> revised = new LinkedHashMap<>();
    Map<String, Integer> replays = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    for (String line : lines) {
      String[] p = line.split(" ");
      if (p[0].equals("I") && p.length == 4 && p[3].equals(".")) {
        inserted.put(p[1], p[2]);
      } else if (p[0].equals("R") && p.length == 4 && p[3].equals(".")) {
        revised.put(p[1], p[2]);
      } else if (p[0].equals("P") && p.length == 3 && p[2].equals(".")) {
        replays.merge(p[1], 1, Integer::sum);
      } else if (!line.equals("READY")) {
        errors.add(line);
      }
    }
    assertThat(errors).as("lines that are not acknowledgements").isEmpty();
    return new Acks(inserted, revised, replays);
  }
}
