package dev.loci.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Leave-one-conversation-out cross-validation over the systems of one LoCoMo run: for each
 * conversation (fold), the system of a family (a mode with every knob setting of the run's grid)
 * with the best turn-level {@code recall_all@k0} on the <em>other</em> conversations is scored on
 * that conversation alone. A family's figure is the mean over every question with its fold's choice
 * (pooled), and the per-fold figures give the spread. So no figure here is a maximum over settings
 * on the questions it is reported on.
 *
 * <p>Families: each mode (its variants), {@code best hybrid or graph} (every fusing variant, the
 * issue's candidate), and each peer alone. Pure: built from a report, then read.
 */
final class LocomoCrossValidation {
  /** The family of every fusing Loci variant. */
  static final String BEST = "best hybrid or graph";

  /** How many figures each question gets, in the order of {@link #metrics()}. */
  private static final int METRICS = 6;

  private final LocomoBenchmark.Report report;
  private final int k0;
  private final int k1;
  private final List<Integer> folds;
  private final Map<String, List<String>> families = new LinkedHashMap<>();

  /**
   * Per system, per question id: turn all@k0, multi-hop all@k1 (NaN if not multi-hop), session
   * all@k0 and all@k1, session ranking all@k0 and all@k1.
   */
  private final Map<String, Map<String, double[]>> scores = new LinkedHashMap<>();

  /** One fold's outcome for a family. */
  record Fold(int conversation, int questions, String chosen, double[] mean) {}

  LocomoCrossValidation(LocomoBenchmark.Report report) {
    this.report = report;
    List<Integer> ks = report.options().ks();
    this.k0 = ks.get(0);
    this.k1 = ks.size() > 1 ? ks.get(1) : k0;
    this.folds =
        List.copyOf(
            new TreeSet<>(
                report.asked().stream().map(LocomoBenchmark.Asked::conversation).toList()));
    List<LocomoVariant> variants = report.options().variants();
    for (LocomoVariant v : variants) {
      families.computeIfAbsent(v.mode().wireName(), x -> new ArrayList<>()).add(v.name());
    }
    List<String> fusing =
        variants.stream()
            .filter(v -> LocomoVariant.fuses(v.mode()))
            .filter(v -> v.mode().usesGraph() || (v.lexicalShare() > 0 && v.lexicalShare() < 1))
            .map(LocomoVariant::name)
            .toList();
    if (!fusing.isEmpty()) {
      families.put(BEST, fusing);
    }
    Set<String> loci = new LinkedHashSet<>();
    variants.forEach(v -> loci.add(v.name()));
    for (String s : report.systems()) {
      if (!loci.contains(s)) {
        families.put(s, List.of(s));
      }
    }
    for (String s : report.systems()) {
      Map<String, double[]> bySystem = new LinkedHashMap<>();
      for (LocomoBenchmark.Asked a : report.asked()) {
        Map<String, Double> turn = LocomoBenchmark.scores(a, s, "turn", ks);
        Map<String, Double> session = LocomoBenchmark.scores(a, s, "session", ks);
        Map<String, Double> ranking = LocomoBenchmark.scores(a, s, "session_ranking", ks);
        bySystem.put(
            a.question().id(),
            new double[] {
              turn.get("recall_all@" + k0),
              a.question().category() == 1 ? turn.get("recall_all@" + k1) : Double.NaN,
              session.get("recall_all@" + k0),
              session.get("recall_all@" + k1),
              ranking.get("recall_all@" + k0),
              ranking.get("recall_all@" + k1)
            });
      }
      scores.put(s, bySystem);
    }
  }

  /** The metrics' names, in the order of {@link Fold#mean()}. */
  List<String> metrics() {
    return List.of(
        "turn recall_all@" + k0,
        "multi-hop recall_all@" + k1,
        "session recall_all@" + k0,
        "session recall_all@" + k1,
        "session ranking recall_all@" + k0,
        "session ranking recall_all@" + k1);
  }

  /** Each family's folds, in conversation order. */
  Map<String, List<Fold>> run() {
    Map<String, List<Fold>> out = new LinkedHashMap<>();
    families.forEach((family, systems) -> out.put(family, folds(systems)));
    return out;
  }

  private List<Fold> folds(List<String> systems) {
    List<Fold> out = new ArrayList<>();
    for (int c : folds) {
      String chosen =
          systems.stream()
              .max(
                  Comparator.comparingDouble((String s) -> mean(s, c, false)[0])
                      .thenComparing(Comparator.comparingInt(systems::indexOf).reversed()))
              .orElseThrow();
      int n = (int) report.asked().stream().filter(a -> a.conversation() == c).count();
      out.add(new Fold(c, n, chosen, mean(chosen, c, true)));
    }
    return out;
  }

  /** Mean metrics of {@code system} on conversation {@code c} (inside) or on all others. */
  private double[] mean(String system, int c, boolean inside) {
    double[] sum = new double[METRICS];
    int[] n = new int[METRICS];
    for (LocomoBenchmark.Asked a : report.asked()) {
      if ((a.conversation() == c) != inside) {
        continue;
      }
      double[] v = scores.get(system).get(a.question().id());
      for (int i = 0; i < METRICS; i++) {
        if (!Double.isNaN(v[i])) {
          sum[i] += v[i];
          n[i]++;
        }
      }
    }
    double[] out = new double[METRICS];
    for (int i = 0; i < METRICS; i++) {
      out[i] = n[i] == 0 ? Double.NaN : sum[i] / n[i];
    }
    return out;
  }

  /** The pooled figure: every question scored with its own fold's choice. */
  double[] pooled(List<Fold> folds) {
    double[] sum = new double[METRICS];
    int[] n = new int[METRICS];
    for (Fold f : folds) {
      for (LocomoBenchmark.Asked a : report.asked()) {
        if (a.conversation() != f.conversation()) {
          continue;
        }
        double[] v = scores.get(f.chosen()).get(a.question().id());
        for (int i = 0; i < METRICS; i++) {
          if (!Double.isNaN(v[i])) {
            sum[i] += v[i];
            n[i]++;
          }
        }
      }
    }
    double[] out = new double[METRICS];
    for (int i = 0; i < METRICS; i++) {
      out[i] = n[i] == 0 ? Double.NaN : sum[i] / n[i];
    }
    return out;
  }

  /** Mean, standard deviation, min and max of metric {@code i} over the folds that have it. */
  static double[] spread(List<Fold> folds, int i) {
    List<Double> v = folds.stream().map(f -> f.mean()[i]).filter(x -> !Double.isNaN(x)).toList();
    double mean = v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    double var =
        v.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / Math.max(1, v.size() - 1);
    return new double[] {
      mean,
      Math.sqrt(var),
      v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
      v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)
    };
  }

  /** The cross-validation section of the Markdown report. */
  String toMarkdown() {
    Map<String, List<Fold>> all = run();
    if (folds.size() < 2) {
      return "";
    }
    StringBuilder b = new StringBuilder("### Leave-one-conversation-out cross-validation\n\n");
    b.append(folds.size())
        .append(" folds. In each, a family's knob setting is the one best on the other")
        .append(" conversations' turn recall_all@")
        .append(k0)
        .append("; pooled = every question scored with its fold's choice; spread = mean ± sd")
        .append(" [min, max] of the per-fold figures.\n\n");
    List<String> head = new ArrayList<>(List.of("family"));
    for (String m : metrics()) {
      head.add(m + " pooled");
    }
    head.add("turn all@" + k0 + " per fold");
    head.add("multi-hop all@" + k1 + " per fold");
    head.add("settings chosen (folds)");
    Format.row(b, head.toArray(String[]::new));
    Format.row(b, head.stream().map(h -> "---").toArray(String[]::new));
    all.forEach(
        (family, fs) -> {
          double[] p = pooled(fs);
          List<String> cells = new ArrayList<>(List.of(family));
          for (double x : p) {
            cells.add(Format.fixed(x, 3));
          }
          cells.add(spreadCell(spread(fs, 0)));
          cells.add(spreadCell(spread(fs, 1)));
          Map<String, Integer> picks = new TreeMap<>();
          fs.forEach(f -> picks.merge(f.chosen(), 1, Integer::sum));
          cells.add(
              String.join(
                  "; ",
                  picks.entrySet().stream()
                      .map(e -> e.getKey() + " (" + e.getValue() + ")")
                      .toList()));
          Format.row(b, cells.toArray(String[]::new));
        });
    b.append('\n');
    List<Fold> best = all.get(BEST);
    if (best != null) {
      b.append("Per fold, ")
          .append(BEST)
          .append(" against the lexical peers (turn recall_all@")
          .append(k0)
          .append("):\n\n");
      Format.row(
          b,
          "conversation",
          "questions",
          "chosen",
          "Loci",
          "Lucene",
          "FTS5",
          "multi-hop all@" + k1,
          "session all@" + k0,
          "session ranking all@" + k0);
      Format.row(b, "---:", "---:", "---", "---:", "---:", "---:", "---:", "---:", "---:");
      Map<Integer, Fold> lucene = byFold(all.get("peer:lucene_bm25"));
      Map<Integer, Fold> fts = byFold(all.get("peer:sqlite_fts5"));
      for (Fold f : best) {
        Format.row(
            b,
            Integer.toString(f.conversation()),
            Integer.toString(f.questions()),
            f.chosen(),
            Format.fixed(f.mean()[0], 3),
            lucene.containsKey(f.conversation())
                ? Format.fixed(lucene.get(f.conversation()).mean()[0], 3)
                : "-",
            fts.containsKey(f.conversation())
                ? Format.fixed(fts.get(f.conversation()).mean()[0], 3)
                : "-",
            Format.fixed(f.mean()[1], 3),
            Format.fixed(f.mean()[2], 3),
            Format.fixed(f.mean()[4], 3));
      }
      b.append('\n');
    }
    return b.toString();
  }

  private static Map<Integer, Fold> byFold(List<Fold> folds) {
    Map<Integer, Fold> out = new TreeMap<>();
    if (folds != null) {
      folds.forEach(f -> out.put(f.conversation(), f));
    }
    return out;
  }

  private static String spreadCell(double[] s) {
    return Format.fixed(s[0], 3)
        + " ± "
        + Format.fixed(s[1], 3)
        + " ["
        + Format.fixed(s[2], 3)
        + ", "
        + Format.fixed(s[3], 3)
        + "]";
  }

  /** The cross-validation as JSON-ready maps. */
  Map<String, Object> toJson() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("metrics", metrics());
    run()
        .forEach(
            (family, fs) -> {
              Map<String, Object> f = new LinkedHashMap<>();
              f.put("pooled", toList(pooled(fs)));
              List<Object> rows = new ArrayList<>();
              for (Fold x : fs) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("conversation", x.conversation());
                r.put("questions", x.questions());
                r.put("chosen", x.chosen());
                r.put("mean", toList(x.mean()));
                rows.add(r);
              }
              f.put("folds", rows);
              out.put(family, f);
            });
    return out;
  }

  private static List<Object> toList(double[] v) {
    List<Object> out = new ArrayList<>();
    for (double x : v) {
      out.add(Double.isNaN(x) ? null : x);
    }
    return out;
  }
}
