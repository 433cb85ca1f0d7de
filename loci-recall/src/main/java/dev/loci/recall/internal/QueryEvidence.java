package dev.loci.recall.internal;

import dev.loci.recall.MemoryNode;
import dev.loci.recall.QueryDates;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.TimeExpressions;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What a question names besides its words, as evidence for fusion: the days or periods it names
 * (items dated in one by {@value RecallQuery#TIME}) and the people it names (items said by one of
 * them, by {@value RecallQuery#SPEAKER}). Each is a list of 1 for the candidates that have it and 0
 * for the others, fused by z-score beside the lexical and embedding rankings with {@value #WEIGHT}
 * of their weight together; a list where every candidate or none has it is left out (nothing to
 * tell apart).
 *
 * <p>Such a list needs no weight of its own to be fitted: the z-score of a 1 is {@code sqrt((1 - p)
 * / p)} for a share {@code p} of candidates that have it, so evidence that most candidates share
 * counts for little and evidence that few share stands out. Stateless.
 */
final class QueryEvidence {
  /** The weight of each such list against the two rankings' together (1). */
  static final double WEIGHT = 0.5;

  private QueryEvidence() {}

  /** The lists of {@code q}'s evidence over the candidates {@code ids}, each as described above. */
  static List<Map<String, Double>> lists(
      RecallQuery q, Set<String> ids, Function<String, Optional<MemoryNode>> node) {
    List<Map<String, Double>> out = new ArrayList<>(2);
    inPeriod(q, ids, node).ifPresent(out::add);
    bySpeaker(q, ids, node).ifPresent(out::add);
    return out;
  }

  /**
   * Query-side time: when the question names days or periods ({@link QueryDates}, counted from the
   * query's day), 1 for each candidate whose {@value RecallQuery#TIME} falls in one of them.
   */
  static Optional<Map<String, Double>> inPeriod(
      RecallQuery q, Set<String> ids, Function<String, Optional<MemoryNode>> node) {
    List<TimeExpressions.Resolved> periods =
        QueryDates.read(q.text(), q.asOf().orElseGet(() -> LocalDate.now(ZoneOffset.UTC)));
    if (periods.isEmpty()) {
      return Optional.empty();
    }
    return binary(
        ids,
        id ->
            node.apply(id)
                .map(n -> n.attributes().getOrDefault(RecallQuery.TIME, ""))
                .flatMap(TimeExpressions::readDate)
                .filter(day -> QueryDates.within(day, periods, 0))
                .isPresent());
  }

  /**
   * Query-side speaker: 1 for each candidate whose {@value RecallQuery#SPEAKER} the question names
   * (a word of the speaker's name, of two letters or more, is a word of the question, case aside).
   * A question about what one person said is mostly answered by that person's turns: of the gold
   * turns of the questions that name one of the two speakers, 83% are that speaker's in LoCoMo, 91%
   * and 84% in the two development sets, against half of all turns (docs/benchmarks.md, "Who the
   * question names").
   */
  static Optional<Map<String, Double>> bySpeaker(
      RecallQuery q, Set<String> ids, Function<String, Optional<MemoryNode>> node) {
    Set<String> asked = words(q.text());
    Map<String, Boolean> named = new HashMap<>();
    return binary(
        ids,
        id ->
            node.apply(id)
                .map(n -> n.attributes().get(RecallQuery.SPEAKER))
                .filter(s -> named.computeIfAbsent(s, name -> isNamed(name, asked)))
                .isPresent());
  }

  private static boolean isNamed(String speaker, Set<String> asked) {
    for (String w : words(speaker)) {
      if (w.length() >= 2 && asked.contains(w)) {
        return true;
      }
    }
    return false;
  }

  /** The lower-case words (runs of letters and digits) of {@code text}. */
  static Set<String> words(String text) {
    Set<String> out = new HashSet<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  private static Optional<Map<String, Double>> binary(
      Set<String> ids, java.util.function.Predicate<String> has) {
    Map<String, Double> out = new HashMap<>();
    int in = 0;
    for (String id : ids) {
      boolean yes = has.test(id);
      out.put(id, yes ? 1.0 : 0.0);
      in += yes ? 1 : 0;
    }
    return in == 0 || in == ids.size() ? Optional.empty() : Optional.of(out);
  }
}
