package dev.loci.ui.internal;

import dev.loci.Namespace;
import dev.loci.recall.EvidenceRef;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.ScoreWeights;
import dev.loci.server.Role;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The recall explorer: a query with mode, k and the formula's weights; each result with its score,
 * the components of that score and its evidence path drawn as a graph; and the same query in a
 * second mode beside the first. Recall here only reads (no reinforcement), so the form is a GET and
 * a result can be bookmarked.
 */
public final class RecallPages {
  /** The largest k the form accepts. */
  static final int MAX_K = 50;

  /** The formula weights the form offers, with the defaults. */
  static final List<String> WEIGHTS = List.of("semantic", "structural", "anomaly", "importance");

  /**
   * One run shown in a column.
   *
   * @param mode the mode
   * @param items the results with their drawn paths
   * @param activationSteps how many activation steps the mode recorded (0 where it has none)
   * @param millis how long the recall took
   * @param weights the weights the recall used (the request's, else the domain pack's)
   * @param graph every result's path in one drawing
   */
  public record Run(
      RecallMode mode,
      List<Item> items,
      int activationSteps,
      double millis,
      ScoreWeights weights,
      PathGraph graph) {
    /** The top score, for the bars. */
    public double top() {
      return items.isEmpty() ? 0 : items.get(0).item().score();
    }
  }

  /**
   * One result.
   *
   * @param rank its rank, from 1
   * @param item the result
   * @param graph its evidence path, laid out
   */
  public record Item(int rank, RecallItem item, PathGraph graph) {
    /** Where its evidence comes from, as {@code file § section, lines a-b}. */
    public List<String> evidence() {
      List<String> out = new ArrayList<>();
      for (EvidenceRef e : item.path().supportingEvidence()) {
        StringBuilder sb = new StringBuilder(e.path());
        e.section().ifPresent(s -> sb.append(" § ").append(s));
        e.lines()
            .ifPresent(l -> sb.append(", lines ").append(l.start()).append('–').append(l.end()));
        out.add(sb.toString());
      }
      return out;
    }

    /** The bar width class (0 to 10) of the score relative to {@code top}. */
    public int bar(double top) {
      return top <= 0 ? 0 : (int) Math.round(10 * Math.min(1, item.score() / top));
    }
  }

  /**
   * The explorer page.
   *
   * @param ns the namespace
   * @param query the query as typed, empty before the first search
   * @param mode the first mode's wire name
   * @param compare the second mode's wire name, empty for none
   * @param k how many results
   * @param weights the weights as typed, by name
   * @param modes every mode's wire name
   * @param runs the runs shown, one or two
   */
  public record Explorer(
      Namespace ns,
      String query,
      String mode,
      String compare,
      int k,
      Map<String, String> weights,
      List<String> modes,
      List<Run> runs) {}

  private final Web web;
  private final RecallMemory recall;

  /** The page over {@code recall}. */
  public RecallPages(Web web, RecallMemory recall) {
    this.web = web;
    this.recall = recall;
  }

  /** Registers {@code /ui/ns/{ns}/recall}. */
  public void register() {
    web.get("/ui/ns/{ns}/recall", Role.READER, this::explore);
  }

  private void explore(Req req) {
    Namespace ns = req.ns();
    String query = req.query("q").orElse("");
    String mode = req.query("mode").orElse("hybrid");
    String compare = req.query("compare").orElse("activation_spreading");
    int k = intField(req.query("k").orElse("5"), "k", 1, MAX_K);
    Map<String, String> typed = new LinkedHashMap<>();
    Map<String, Double> w = new LinkedHashMap<>(ScoreWeights.DEFAULT.asMap());
    for (String name : WEIGHTS) {
      String v = req.query("w_" + name).orElse(fmt(w.get(name)));
      typed.put(name, v);
      w.put(name, weight(v, name));
    }
    boolean custom = WEIGHTS.stream().anyMatch(n -> req.query("w_" + n).isPresent());
    List<Run> runs = new ArrayList<>();
    if (!query.isEmpty()) {
      Optional<ScoreWeights> weights = custom ? Optional.of(ScoreWeights.of(w)) : Optional.empty();
      runs.add(run(ns, query, RecallMode.parse(mode), k, weights));
      if (!compare.equals("none") && !compare.equals(mode)) {
        runs.add(run(ns, query, RecallMode.parse(compare), k, weights));
      }
    }
    List<String> modes = Arrays.stream(RecallMode.values()).map(RecallMode::wireName).toList();
    req.page(
        "recall.jte",
        req.chrome("Recall explorer · " + ns, "recall", Optional.of(ns)),
        new Explorer(ns, query, mode, compare, k, typed, modes, runs));
  }

  private Run run(
      Namespace ns, String query, RecallMode mode, int k, Optional<ScoreWeights> weights) {
    long t0 = System.nanoTime();
    RecallQuery.Builder q = RecallQuery.builder(query, mode).k(k);
    weights.ifPresent(q::weights);
    RecallResult r = recall.recall(ns, q.build());
    double ms = (System.nanoTime() - t0) / 1e6;
    List<Item> items = new ArrayList<>();
    for (RecallItem i : r.items()) {
      items.add(new Item(items.size() + 1, i, PathGraph.of(i.path(), r.activation())));
    }
    PathGraph merged =
        PathGraph.merged(r.items().stream().map(RecallItem::path).toList(), r.activation());
    return new Run(mode, items, r.activationTrace().size(), ms, r.weights(), merged);
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
  }

  private static double weight(String text, String name) {
    try {
      double d = Double.parseDouble(text);
      if (d >= 0 && d <= 10) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw PageProblem.badField("w_" + name, "expected a number from 0 to 10, found '" + text + "'");
  }

  static int intField(String text, String field, int min, int max) {
    try {
      int n = Integer.parseInt(text);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw PageProblem.badField(
        field, "expected a whole number from " + min + " to " + max + ", found '" + text + "'");
  }
}
