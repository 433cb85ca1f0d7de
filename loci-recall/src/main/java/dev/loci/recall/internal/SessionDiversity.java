package dev.loci.recall.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Diversity at ranking time by a cap per session: walking a ranking best first, an item whose
 * session already has {@code cap} items placed is held back; held-back items follow, in their
 * order, once every item within its session's cap is placed. Items without a session are never held
 * back. So the top of the ranking covers more sessions, and nothing found is dropped.
 *
 * <p>Why a cap rather than MMR: it has one integer knob with a plain meaning, needs no similarity
 * between items (so costs nothing per query), and keeps the relevance order inside each session.
 * Stateless.
 */
public final class SessionDiversity {
  private SessionDiversity() {}

  /**
   * {@code ranked} reordered so that no session has more than {@code cap} items before every
   * session's first {@code cap} are placed; {@code cap} 0 returns it unchanged.
   *
   * @param ranked item ids, best first
   * @param sessionOf the session of an item, empty for none
   * @param cap the most items of one session in the first pass, 0 for no cap
   */
  public static <T> List<T> rerank(
      List<T> ranked, Function<T, Optional<String>> sessionOf, int cap) {
    if (cap <= 0) {
      return ranked;
    }
    List<T> out = new ArrayList<>(ranked.size());
    List<T> held = new ArrayList<>();
    Map<String, Integer> placed = new HashMap<>();
    for (T item : ranked) {
      Optional<String> session = sessionOf.apply(item);
      if (session.isEmpty() || placed.merge(session.get(), 1, Integer::sum) <= cap) {
        out.add(item);
      } else {
        held.add(item);
      }
    }
    out.addAll(held);
    return out;
  }
}
