package dev.loci.govern.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;

/**
 * Active records by word, and the best {@code k} of them for a set of words without scoring every
 * record that holds one.
 *
 * <p>Design. A record scores its confidence times the sum of the inverse document frequencies of
 * the query words it holds; ties go to the smaller id. Each word's postings are ordered by
 * confidence (highest first), then id, so a top-k search walks the query words' postings side by
 * side (Fagin's threshold algorithm): every record met is scored in full (each posting carries the
 * record's words, so which query words it holds is a hash lookup each, and a record another cursor
 * has already passed was scored there: no set of records met is kept), kept in a bounded heap of
 * the best {@code k}, and the walk stops as soon as no record not yet met can beat the heap's
 * worst: such a record sits at or after every cursor of the words it holds, so it scores at most
 * the highest cursor confidence times the summed idf of the words whose postings are not yet
 * exhausted, and on an equal score its id is at least the smallest cursor id. The result is exactly
 * the top {@code k} of a full scan, at the cost of the records met before the bound closes (about
 * {@code k} divided by how often the query words co-occur) instead of every posting. Not
 * thread-safe: the layer changes it only while applying a batch.
 */
final class WordPostings {
  /** A record under a word; {@code words} are all the words it is under (not compared). */
  private record Posting(double confidence, String id, Set<String> words) {}

  private record Scored(double score, String id) {}

  /**
   * Higher confidence first, then smaller id: written out rather than composed from {@code
   * comparingDouble(...).reversed().thenComparing(...)}, as every posting lookup of a pack runs it
   * about twenty times.
   */
  private static final Comparator<Posting> ORDER =
      (a, b) -> {
        int c = Double.compare(b.confidence(), a.confidence());
        return c != 0 ? c : a.id().compareTo(b.id());
      };

  /** Best first: higher score, then smaller id. */
  private static final Comparator<Scored> BEST =
      (a, b) -> {
        int c = Double.compare(b.score(), a.score());
        return c != 0 ? c : a.id().compareTo(b.id());
      };

  private final Map<String, NavigableSet<Posting>> byWord = new HashMap<>();

  /** Records {@code id} under each of {@code words}. */
  void add(String id, double confidence, Set<String> words) {
    Posting p = new Posting(confidence, id, Set.copyOf(words));
    for (String w : words) {
      byWord.computeIfAbsent(w, x -> new TreeSet<>(ORDER)).add(p);
    }
  }

  /** Takes {@code id}, recorded with {@code confidence}, out of each of {@code words}. */
  void remove(String id, double confidence, Set<String> words) {
    Posting p = new Posting(confidence, id, Set.of()); // found by confidence and id
    for (String w : words) {
      NavigableSet<Posting> set = byWord.get(w);
      if (set != null && set.remove(p) && set.isEmpty()) {
        byWord.remove(w);
      }
    }
  }

  /**
   * The ids of the best {@code k} records for {@code words} out of {@code total} records, best
   * first: confidence times the summed {@code log(1 + total / df)} of the words held; ties by id.
   */
  List<String> top(Collection<String> words, int total, int k) {
    List<NavigableSet<Posting>> lists = new ArrayList<>();
    List<String> listWords = new ArrayList<>();
    for (String w : new TreeSet<>(words)) { // a fixed order: sums add up the same way every time
      NavigableSet<Posting> set = byWord.get(w);
      if (set != null) {
        lists.add(set);
        listWords.add(w);
      }
    }
    int n = lists.size();
    if (n == 0 || k <= 0) {
      return List.of();
    }
    double[] idf = new double[n];
    List<Iterator<Posting>> cursors = new ArrayList<>(n);
    Posting[] next = new Posting[n];
    for (int i = 0; i < n; i++) {
      idf[i] = Math.log(1.0 + (double) total / lists.get(i).size());
      cursors.add(lists.get(i).iterator());
      next[i] = cursors.get(i).next();
    }
    PriorityQueue<Scored> best = new PriorityQueue<>(BEST.reversed()); // head: the worst kept
    while (true) {
      double idfLeft = 0;
      double highest = Double.NEGATIVE_INFINITY;
      String smallest = null;
      for (int i = 0; i < n; i++) {
        if (next[i] != null) {
          idfLeft += idf[i];
          highest = Math.max(highest, next[i].confidence());
          smallest =
              smallest == null || next[i].id().compareTo(smallest) < 0 ? next[i].id() : smallest;
        }
      }
      if (smallest == null) {
        break; // every posting met
      }
      if (best.size() == k) {
        Scored worst = best.peek();
        double bound = highest * idfLeft;
        if (worst.score() > bound
            || (worst.score() == bound && worst.id().compareTo(smallest) < 0)) {
          break; // no record not yet met can enter the best k
        }
      }
      for (int i = 0; i < n; i++) {
        Posting p = next[i];
        if (p == null) {
          continue;
        }
        next[i] = cursors.get(i).hasNext() ? cursors.get(i).next() : null;
        // scored already if another of its words' cursors has passed it; else score it in full
        boolean met = false;
        double sum = 0;
        for (int j = 0; j < n && !met; j++) {
          if (j == i) {
            sum += idf[j];
          } else if (p.words().contains(listWords.get(j))) {
            met = next[j] == null || ORDER.compare(next[j], p) > 0;
            sum += idf[j];
          }
        }
        if (met) {
          continue;
        }
        Scored s = new Scored(p.confidence() * sum, p.id());
        if (best.size() < k) {
          best.add(s);
        } else if (BEST.compare(s, best.peek()) < 0) {
          best.poll();
          best.add(s);
        }
      }
    }
    return best.stream().sorted(BEST).map(Scored::id).toList();
  }
}
