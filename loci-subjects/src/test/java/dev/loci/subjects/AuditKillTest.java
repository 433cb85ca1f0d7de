package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.ChildJvm;
import dev.loci.Loci;
import dev.loci.NamespaceScope;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process with SIGKILL while it writes records naming subjects (the audit log spooling,
 * forced at snapshots, checkpointed into the subject files), at a spread of points: after the
 * reopen every subject's audit chain verifies, holds exactly the entries the journal records, and
 * the acknowledged writes are all there; a second reopen finds the same.
 */
class AuditKillTest {
  @TempDir Path tmp;

  static Loci open(Path dir) {
    return Loci.builder().dataDir(dir).snapshotAfter(300).open();
  }

  @Test
  void kill9_whileWritingWithSubjects_leavesEveryAuditChainWholeAndComplete() throws Exception {
    int run = 0;
    int spoolLeft = 0;
    for (int ticks : new int[] {50, 400, 1500, 4000}) {
      Path dir = tmp.resolve("data-" + run++);
      List<String> lines =
          ChildJvm.runAndKill(tmp, AuditCrashChild.class, ticks, 120, dir.toString());
      long acknowledged = lines.stream().filter("T"::equals).count();
      Path spool = dir.resolve("subjects").resolve("audit").resolve("spool");
      if (java.nio.file.Files.exists(spool) && java.nio.file.Files.size(spool) > 0) {
        spoolLeft++;
      }
      for (int reopen = 0; reopen < 2; reopen++) {
        try (Loci loci = open(dir)) {
          Subjects subjects = Subjects.of(loci);
          var verified = subjects.verifyAudit(Optional.empty());
          assertThat(verified.problems()).as("after a kill at %d writes", ticks).isEmpty();
          long held = 0;
          for (int p = 0; p < 50; p++) {
            held += subjects.manifest("p-" + p, NamespaceScope.of("clinic.*")).records().size();
          }
          assertThat(held).as("acknowledged writes held").isGreaterThanOrEqualTo(acknowledged);
          assertThat(verified.entries()).isGreaterThanOrEqualTo(acknowledged);
        }
      }
    }
    assertThat(spoolLeft).as("kills that left spooled audit lines to apply").isPositive();
  }
}
