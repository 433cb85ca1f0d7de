package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The words of {@link MemoryNode#INDEX_TERMS} are found by lexical search, as the content is. */
class IndexTermsRecallTest {
  private static final Namespace NS = Namespace.of("team.chat");

  @TempDir Path tmp;

  private static RecallResult ask(RecallMemory recall, String question) {
    return recall.recall(NS, RecallQuery.builder(question, RecallMode.LEXICAL).k(5).build());
  }

  @Test
  void recall_lexical_findsANodeByItsIndexTerms_alsoAfterTheIndexIsRebuilt() throws IOException {
    try (Loci loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open()) {
      RecallMemory recall = RecallMemory.of(loci);
      recall.putNode(
          NS,
          MemoryNode.builder("may", "turn", "we moved the export job")
              .attribute(MemoryNode.INDEX_TERMS, "8 May 2023")
              .build());
      recall.putNode(NS, MemoryNode.builder("june", "turn", "we moved the export job").build());

      assertThat(ask(recall, "What happened in May?").ids()).containsExactly("may");
    }
    try (Stream<Path> index = Files.walk(tmp.resolve("index"))) {
      index.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    try (Loci loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open()) {
      assertThat(ask(RecallMemory.of(loci), "What happened in May?").ids()).containsExactly("may");
    }
  }
}
