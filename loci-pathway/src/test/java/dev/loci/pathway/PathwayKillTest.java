package dev.loci.pathway;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Loci;
import dev.loci.NamespaceScope;
import dev.loci.VerifyReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
                PathwayTrace t = pathways.get(PathwayCrashWriter.NS, uid, true);
                assertThat(t.pathwayId()).as("pathway of %s", uid).isEqualTo(pathwayId);
                assertThat(t.version()).isEqualTo(1);
                assertThat(t.reducerSummary()).contains("[email]").doesNotContain("@example.com");
                seen.put(uid, t);
              });
      acks.revised()
          .forEach(
              (old, fresh) -> {
                PathwayTrace before = pathways.get(PathwayCrashWriter.NS, old, true);
                PathwayTrace after = pathways.get(PathwayCrashWriter.NS, fresh, true);
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
            PathwayTrace t = pathways.get(PathwayCrashWriter.NS, head, false);
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
    PathwayTrace t = pathways.get(PathwayCrashWriter.NS, uid, true);
    while (t.supersededByTraceUid().isPresent()) {
      t = pathways.get(PathwayCrashWriter.NS, t.supersededByTraceUid().get(), true);
    }
    return t.traceUid();
  }

  /**
   * Runs {@link PathwayCrashWriter}, kills it with SIGKILL once it has printed {@code killAfter}
   * lines, and parses the complete lines it printed.
   */
  private Acks runAndKill(Path dir, long snapshotMillis, int killAfter, long timeoutSeconds)
      throws IOException, InterruptedException {
    Path stdout = Files.createTempFile(tmp, "writer", ".out");
    Path stderr = Files.createTempFile(tmp, "writer", ".err");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                PathwayCrashWriter.class.getName(),
                dir.toString(),
                Integer.toString(THREADS),
                Long.toString(snapshotMillis))
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    try {
      while (lines(stdout) < killAfter + 1) {
        assertThat(child.isAlive())
            .as("child alive; stderr: %s", Files.readString(stderr, UTF_8))
            .isTrue();
        assertThat(System.nanoTime())
            .as("child reached %d lines in time", killAfter)
            .isLessThan(deadline);
        Thread.sleep(10);
      }
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as("exit status of a SIGKILLed process").isEqualTo(137);
    } finally {
      child.destroyForcibly();
    }
    Map<String, String> inserted = new LinkedHashMap<>();
    Map<String, String> revised = new LinkedHashMap<>();
    Map<String, Integer> replays = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    String out = Files.readString(stdout, UTF_8);
    for (String line : out.substring(0, out.lastIndexOf('\n') + 1).split("\n")) {
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

  private static long lines(Path file) throws IOException {
    byte[] b = Files.readAllBytes(file);
    long n = 0;
    for (byte c : b) {
      if (c == '\n') {
        n++;
      }
    }
    return n;
  }
}
