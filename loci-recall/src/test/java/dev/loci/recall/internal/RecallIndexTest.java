package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The persisted text and vector indexes: reused when in step with the journal, caught up when
 * behind, rebuilt when missing, corrupt or ahead, and HNSW agreeing with the exact scan.
 */
class RecallIndexTest {
  static final Namespace NS = Namespace.of("acme.index");
  static final String[] WORDS = {
    "invoice", "refund", "latency", "checkout", "rollback", "pager", "contract", "renewal",
    "penalty", "escalate", "database", "replica", "timeout", "outage", "customer", "warranty",
    "shipment", "delay", "breach", "notice", "termination", "audit", "ledger", "cache"
  };
  static final List<String> QUERIES =
      List.of(
          "refund after checkout latency",
          "contract renewal penalty",
          "database replica timeout outage",
          "warranty shipment delay notice",
          "audit ledger cache");
  static final List<RecallMode> MODES =
      List.of(RecallMode.LEXICAL, RecallMode.EMBEDDING, RecallMode.HYBRID, RecallMode.PPR);

  @TempDir Path tmp;

  private static Loci open(Path dir) {
    return Loci.builder().dataDir(dir).snapshotAfter(0).open();
  }

  private static RecallLayer layer(Loci loci) {
    return loci.layer(RecallLayer.class);
  }

  private static String text(Random r, int words) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < words; i++) {
      b.append(i == 0 ? "" : " ").append(WORDS[r.nextInt(WORDS.length)]);
    }
    return b.toString();
  }

  /** Puts nodes n0..n{count-1} of seeded random text, chained by next_unit edges. */
  private static void fill(RecallMemory recall, int from, int count, long seed) {
    Random r = new Random(seed);
    for (int i = from; i < from + count; i++) {
      recall.putNode(NS, MemoryNode.builder("n" + i, "unit", text(r, 8)).build());
      if (i > from) {
        recall.putEdge(NS, MemoryEdge.of("n" + (i - 1), "n" + i, "next_unit", 0.7));
      }
    }
  }

  /** The top five ids of every query in every mode. */
  private static Map<String, List<String>> answers(RecallMemory recall) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (RecallMode mode : MODES) {
      for (String q : QUERIES) {
        out.put(mode + " " + q, ids(recall, q, mode, 5));
      }
    }
    return out;
  }

  private static List<String> ids(RecallMemory recall, String q, RecallMode mode, int k) {
    return recall.recall(NS, RecallQuery.builder(q, mode).k(k).build()).items().stream()
        .map(RecallItem::node)
        .map(MemoryNode::id)
        .toList();
  }

  @Test
  void restart_indexesInStep_areReusedNotRebuilt() {
    Path dir = tmp.resolve("data");
    Map<String, List<String>> before;
    try (Loci loci = open(dir)) {
      RecallMemory recall = RecallMemory.of(loci);
      fill(recall, 0, 40, 1);
      before = answers(recall);
    }
    assertThat(dir.resolve("index/recall/text/acme.index")).isDirectory();
    assertThat(dir.resolve("index/recall/vectors")).isDirectory();

    assertReopensWithoutIndexing(dir, before);
  }

  @Test
  void restart_afterOtherLayersWritesSnapshotAndCompact_doesNotRebuild() {
    Path dir = tmp.resolve("data");
    Map<String, List<String>> before;
    try (Loci loci = open(dir)) {
      RecallMemory recall = RecallMemory.of(loci);
      fill(recall, 0, 30, 2);
      before = answers(recall);
    }
    try (Loci loci = open(dir)) {
      for (int i = 0; i < 5; i++) {
        loci.traces().add(NS, "{\"fact\":" + i + "}", List.of("unrelated"));
      }
      loci.snapshot();
      loci.traces().add(NS, "{\"fact\":\"after the snapshot\"}", List.of());
      loci.compact();
      loci.traces().add(NS, "{\"fact\":\"after compaction\"}", List.of());
    }
    assertReopensWithoutIndexing(dir, before);
  }

  @Test
  void restart_indexBehindJournal_catchesUpWithoutRebuilding() throws IOException {
    Path dir = tmp.resolve("data");
    Path saved = tmp.resolve("saved-index");
    try (Loci loci = open(dir)) {
      fill(RecallMemory.of(loci), 0, 30, 3);
    }
    copy(dir.resolve("index"), saved);
    try (Loci loci = open(dir)) {
      RecallMemory recall = RecallMemory.of(loci);
      recall.putNode(NS, MemoryNode.builder("n1", "unit", "quasar telescope mirror").build());
      recall.removeNode(NS, "n2");
      recall.putNode(NS, MemoryNode.builder("n99", "unit", "nebula dust cloud").build());
    }
    Map<String, List<String>> expected;
    Path fresh = tmp.resolve("fresh");
    copy(dir, fresh);
    IndexShard.deleteTree(fresh.resolve("index"));
    try (Loci loci = open(fresh)) {
      expected = answers(RecallMemory.of(loci));
    }
    IndexShard.deleteTree(dir.resolve("index"));
    copy(saved, dir.resolve("index"));

    try (Loci loci = open(dir)) {
      RecallMemory recall = RecallMemory.of(loci);
      assertThat(layer(loci).rebuilds()).as("rebuilds").isZero();
      assertThat(layer(loci).catchUps()).as("catch-ups: text and vectors").isEqualTo(2);
      assertThat(ids(recall, "quasar", RecallMode.LEXICAL, 5)).containsExactly("n1");
      assertThat(ids(recall, "nebula", RecallMode.LEXICAL, 5)).containsExactly("n99");
      assertThat(ids(recall, "nebula dust cloud", RecallMode.EMBEDDING, 1)).containsExactly("n99");
      assertThat(answers(recall)).isEqualTo(expected).allSatisfy((q, ids) -> assertNoN2(ids));
    }
    try (Loci loci = open(dir)) {
      RecallMemory.of(loci);
      assertThat(layer(loci).catchUps()).as("caught up once, then in step").isZero();
    }
  }

  private static void assertNoN2(List<String> ids) {
    assertThat(ids).doesNotContain("n2");
  }

  @ParameterizedTest(name = "index {0}")
  @ValueSource(strings = {"deleted", "corrupted", "truncated"})
  void restart_indexDamaged_isRebuiltAndAnswersTheSame(String damage) throws IOException {
    Path dir = tmp.resolve("data");
    Map<String, List<String>> before;
    try (Loci loci = open(dir)) {
      RecallMemory recall = RecallMemory.of(loci);
      fill(recall, 0, 40, 4);
      before = answers(recall);
    }
    Path index = dir.resolve("index");
    switch (damage) {
      case "deleted" -> IndexShard.deleteTree(index);
      case "corrupted" -> {
        for (Path f : files(index)) {
          byte[] b = Files.readAllBytes(f);
          for (int i = 0; i < b.length; i++) {
            b[i] ^= 0x5a;
          }
          Files.write(f, b);
        }
      }
      default -> {
        for (Path f : files(index)) {
          Files.write(f, new byte[0]);
        }
      }
    }

    try (Loci loci = open(dir)) {
      RecallMemory recall = RecallMemory.of(loci);
      assertThat(layer(loci).rebuilds()).as("rebuilds: text and vectors").isEqualTo(2);
      assertThat(answers(recall)).isEqualTo(before);
    }
    try (Loci loci = open(dir)) {
      RecallMemory.of(loci);
      assertThat(layer(loci).rebuilds()).as("rebuilt once, then reused").isZero();
    }
  }

  @Test
  void restart_indexAheadOfJournal_isRebuilt() throws IOException {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    Map<String, List<String>> before;
    try (Loci loci = open(a)) {
      RecallMemory recall = RecallMemory.of(loci);
      fill(recall, 0, 20, 5);
      before = answers(recall);
    }
    copy(a, b);
    try (Loci loci = open(a)) {
      RecallMemory recall = RecallMemory.of(loci);
      for (int i = 0; i < 5; i++) {
        recall.putNode(NS, MemoryNode.builder("x" + i, "unit", "zeppelin hangar " + i).build());
      }
    }
    IndexShard.deleteTree(b.resolve("index"));
    copy(a.resolve("index"), b.resolve("index"));

    try (Loci loci = open(b)) {
      RecallMemory recall = RecallMemory.of(loci);
      assertThat(layer(loci).rebuilds()).as("rebuilds: text and vectors").isEqualTo(2);
      assertThat(ids(recall, "zeppelin hangar", RecallMode.LEXICAL, 5)).isEmpty();
      assertThat(answers(recall)).isEqualTo(before);
    }
  }

  /**
   * The corpus is topical, as real embeddings are (HNSW navigates by neighbourhoods; the hashing
   * provider's vectors of texts that share no word are near orthogonal, where no graph search can
   * be expected to find the best): 12 topics of 15 words, 25 nodes per topic, each node 7 words of
   * its topic and one word of its own. A query is 3 words of a topic and one node's own word.
   */
  @Test
  void hnswAndExactScan_smallCorpusForcedOverThreshold_agreeOnTheTopResult() {
    long seed = 20261123L;
    try (Loci loci = open(tmp.resolve("data"))) {
      RecallMemory recall = RecallMemory.of(loci);
      Random r = new Random(seed);
      for (int i = 0; i < 300; i++) {
        String text = topical(r, i % 12, 7) + " own" + i + "x";
        recall.putNode(NS, MemoryNode.builder("n" + i, "unit", text).build());
      }
      List<String> queries = new ArrayList<>();
      for (int q = 0; q < 40; q++) {
        int node = r.nextInt(300);
        queries.add(topical(r, node % 12, 3) + " own" + node + "x");
      }
      List<RecallItem> exact = new ArrayList<>();
      queries.forEach(q -> exact.add(top(recall, q)));
      layer(loci).exactBelow(1);
      List<RecallItem> hnsw = new ArrayList<>();
      queries.forEach(q -> hnsw.add(top(recall, q)));
      for (int i = 0; i < queries.size(); i++) {
        assertThat(hnsw.get(i).node().id())
            .as("seed %d, query %d: %s", seed, i, queries.get(i))
            .isEqualTo(exact.get(i).node().id());
        assertThat(hnsw.get(i).score()).isCloseTo(exact.get(i).score(), within(1e-5));
      }
    }
  }

  private static String topical(Random r, int topic, int words) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < words; i++) {
      b.append(i == 0 ? "" : " ").append("t").append(topic).append("w").append(r.nextInt(15));
    }
    return b.toString();
  }

  private static RecallItem top(RecallMemory recall, String q) {
    return recall
        .recall(NS, RecallQuery.builder(q, RecallMode.EMBEDDING).k(1).build())
        .items()
        .get(0);
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(f -> !f.getFileName().toString().equals("write.lock"))
          .toList();
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().equals("lock")
            && !p.getFileName().toString().equals("write.lock")) {
          Files.copy(p, target);
        }
      }
    }
  }

  /**
   * Reopens {@code dir}: no index is rebuilt or caught up, and recall answers as {@code before}.
   */
  private static void assertReopensWithoutIndexing(Path dir, Map<String, List<String>> before) {
    try (Loci loci = open(dir)) {
      RecallMemory recall = RecallMemory.of(loci);
      assertThat(layer(loci).rebuilds()).as("rebuilds").isZero();
      assertThat(layer(loci).catchUps()).as("catch-ups").isZero();
      assertThat(answers(recall)).isEqualTo(before);
    }
  }
}
