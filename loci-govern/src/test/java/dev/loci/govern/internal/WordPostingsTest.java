package dev.loci.govern.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WordPostingsTest {
  private static final String[] VOCAB = {"alpha", "beta", "gamma", "delta", "eps", "zeta", "eta"};

  /** The early-stopping walk returns exactly what scoring every record would, ties included. */
  @Test
  void topKEqualsAFullScan() {
    Random r = new Random(42);
    for (int round = 0; round < 60; round++) {
      WordPostings postings = new WordPostings();
      Map<String, Set<String>> words = new HashMap<>();
      Map<String, Double> confidence = new HashMap<>();
      int records = 1 + r.nextInt(400);
      // few distinct confidences: many exact ties, which the id order must break
      double[] levels = round % 2 == 0 ? new double[] {0.8} : new double[] {0.3, 0.55, 0.8, 1.0};
      for (int i = 0; i < records; i++) {
        String id = "m" + r.nextInt(100_000);
        if (words.containsKey(id)) {
          continue;
        }
        Set<String> ws = new HashSet<>();
        int n = 1 + r.nextInt(4);
        for (int k = 0; k < n; k++) {
          ws.add(VOCAB[Math.min(VOCAB.length - 1, (int) Math.abs(r.nextGaussian() * 2))]);
        }
        double c = levels[r.nextInt(levels.length)];
        postings.add(id, c, ws);
        words.put(id, ws);
        confidence.put(id, c);
      }
      // remove some, and re-add some with a new confidence, as new versions do
      for (String id : new ArrayList<>(words.keySet())) {
        if (r.nextInt(5) == 0) {
          postings.remove(id, confidence.get(id), words.get(id));
          if (r.nextBoolean()) {
            words.remove(id);
            confidence.remove(id);
          } else {
            double c = levels[r.nextInt(levels.length)];
            postings.add(id, c, words.get(id));
            confidence.put(id, c);
          }
        }
      }
      Set<String> query = new HashSet<>();
      for (int k = 0, n = 1 + r.nextInt(4); k < n; k++) {
        query.add(r.nextInt(6) == 0 ? "absent" : VOCAB[r.nextInt(VOCAB.length)]);
      }
      int k = 1 + r.nextInt(50);
      int total = words.size();
      assertThat(postings.top(query, Math.max(1, total), k))
          .as("round %d, query %s, k %d", round, query, k)
          .containsExactlyElementsOf(scan(words, confidence, query, Math.max(1, total), k));
    }
  }

  private static List<String> scan(
      Map<String, Set<String>> words,
      Map<String, Double> confidence,
      Set<String> query,
      int total,
      int k) {
    List<String> sorted = new java.util.TreeSet<>(query).stream().toList();
    Map<String, Double> score = new HashMap<>();
    for (Map.Entry<String, Set<String>> e : words.entrySet()) {
      double sum = 0;
      boolean any = false;
      for (String w : sorted) {
        long df = words.values().stream().filter(s -> s.contains(w)).count();
        if (e.getValue().contains(w)) {
          sum += Math.log(1.0 + (double) total / df);
          any = true;
        }
      }
      if (any) {
        score.put(e.getKey(), confidence.get(e.getKey()) * sum);
      }
    }
    return score.entrySet().stream()
        .sorted(
            Comparator.comparingDouble((Map.Entry<String, Double> e) -> -e.getValue())
                .thenComparing(Map.Entry::getKey))
        .limit(k)
        .map(Map.Entry::getKey)
        .toList();
  }
}
