package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HNSW search explores {@link VectorIndex#candidates} candidates, not only the k + 16 it keeps:
 * on word-overlap vectors of unrelated texts (the hard case for a graph search) it finds at least
 * 95% of the exact scan's top 10; the count grows with the namespace above 100,000 vectors.
 */
class HnswRecallTest {
  static final Namespace NS = Namespace.of("acme.hnsw");

  @TempDir Path tmp;

  @Test
  void hnswSearch_unrelatedTexts_findsMostOfTheExactTopTen() {
    Random r = new Random(20261126L);
    try (Loci loci =
        Loci.builder().dataDir(tmp.resolve("data")).durability(Durability.none()).open()) {
      RecallMemory recall = RecallMemory.of(loci);
      for (int i = 0; i < 4_000; i++) {
        recall.putNode(
            NS, MemoryNode.builder("n" + i, "unit", words(r, 10 + r.nextInt(10))).build());
      }
      List<String> queries = new ArrayList<>();
      for (int q = 0; q < 50; q++) {
        queries.add(words(r, 3 + r.nextInt(4)));
      }
      List<Set<String>> exact = new ArrayList<>();
      queries.forEach(q -> exact.add(top10(recall, q)));
      loci.layer(RecallLayer.class).exactBelow(1);
      int found = 0;
      int wanted = 0;
      for (int i = 0; i < queries.size(); i++) {
        Set<String> hnsw = top10(recall, queries.get(i));
        wanted += exact.get(i).size();
        for (String id : exact.get(i)) {
          found += hnsw.contains(id) ? 1 : 0;
        }
      }
      assertThat(wanted).isGreaterThan(400);
      assertThat((double) found / wanted)
          .as("recall@10, %d of %d", found, wanted)
          .isGreaterThan(0.95);
    }
  }

  @Test
  void candidates_growAboveOneHundredThousandVectors_neverBelowWhatIsKept() {
    assertThat(VectorIndex.candidates(20_000, 10)).isEqualTo(100);
    assertThat(VectorIndex.candidates(100_000, 10)).isEqualTo(100);
    // hybrid asks for 50 and keeps 66: still 100 explored
    assertThat(VectorIndex.candidates(100_000, 50)).isEqualTo(100);
    assertThat(VectorIndex.candidates(20_000, 200)).isEqualTo(216);
    assertThat(VectorIndex.candidates(200_000, 10)).isEqualTo(171);
    assertThat(VectorIndex.candidates(400_000, 10)).isEqualTo(294);
    // a million bge-small vectors needed 600 for recall@10 0.95 (docs/benchmarks.md)
    assertThat(VectorIndex.candidates(1_000_000, 10)).isEqualTo(600);
    assertThat(VectorIndex.candidates(Integer.MAX_VALUE, 10)).isEqualTo(5_000);
    assertThat(VectorIndex.candidates(Integer.MAX_VALUE, 6_000)).isEqualTo(6_016);
  }

  private static String words(Random r, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : " ").append("w").append((int) (3_000 * Math.pow(r.nextDouble(), 2)));
    }
    return b.toString();
  }

  private static Set<String> top10(RecallMemory recall, String q) {
    Set<String> ids = new HashSet<>();
    for (RecallItem item :
        recall.recall(NS, RecallQuery.builder(q, RecallMode.EMBEDDING).k(10).build()).items()) {
      ids.add(item.node().id());
    }
    return ids;
  }
}
