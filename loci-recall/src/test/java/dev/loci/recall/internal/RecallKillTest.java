package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.ChildJvm;
import dev.loci.Loci;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process that puts memory nodes with SIGKILL while its indexes commit in the background,
 * then checks that every acknowledged node is found by lexical and by embedding recall after the
 * reopen, whatever state the persisted indexes were left in.
 */
class RecallKillTest {
  @TempDir Path tmp;

  @Test
  void kill9_whileIngesting_everyAcknowledgedNodeIsFoundByLexicalAndEmbeddingRecall()
      throws Exception {
    Path dir = tmp.resolve("data");
    // enough writes to span index commits (every RecallIndexes.COMMIT_MILLIS) before the kill
    List<String> lines =
        ChildJvm.runAndKill(tmp, RecallCrashWriter.class, 601, 90, dir.toString()).stream()
            .filter(l -> !l.equals("READY"))
            .toList();
    assertThat(lines).allMatch(l -> l.matches("N n\\d+ \\.")).hasSizeGreaterThanOrEqualTo(600);

    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      RecallMemory recall = RecallMemory.of(loci);
      for (String line : lines) {
        int i = Integer.parseInt(line.substring(3, line.length() - 2));
        String id = "n" + i;
        assertThat(top(recall, RecallCrashWriter.word(i), RecallMode.LEXICAL))
            .as("lexical top hit for node %s", id)
            .isEqualTo(id);
        assertThat(top(recall, RecallCrashWriter.content(i), RecallMode.EMBEDDING))
            .as("embedding top hit for node %s", id)
            .isEqualTo(id);
      }
    }
  }

  private static String top(RecallMemory recall, String text, RecallMode mode) {
    List<RecallItem> items =
        recall.recall(RecallCrashWriter.NS, RecallQuery.builder(text, mode).k(1).build()).items();
    return items.isEmpty() ? "(none)" : items.get(0).node().id();
  }
}
