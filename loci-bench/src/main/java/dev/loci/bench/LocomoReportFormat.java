package dev.loci.bench;

import dev.loci.recall.RecallMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The Markdown and JSON forms of a {@link LocomoBenchmark.Report}. */
final class LocomoReportFormat {
  private final LocomoBenchmark.Report report;
  private final LocomoBenchmark.Options options;
  private final Machine machine;
  private final LocomoData data;
  private final List<String> systems;
  private final List<LocomoBenchmark.Asked> asked;
  private final double seconds;

  LocomoReportFormat(LocomoBenchmark.Report report) {
    this.report = report;
    this.options = report.options();
    this.machine = report.machine();
    this.data = report.data();
    this.systems = report.systems();
    this.asked = report.asked();
    this.seconds = report.seconds();
  }

  /** Markdown: skips, then per split the overall table and the by-category table. */
  String markdown() {
    var summary = report.summary();
    StringBuilder b = new StringBuilder();
    b.append("## Recall quality: LoCoMo\n\n");
    b.append(machine.toMarkdown());
    b.append(
        String.format(
            Locale.ROOT,
            "Questions scored: %d (tuning: conversations 1-%d, held out: the rest). Embedding:"
                + " %s. Loci turn text: %s. Graph modes: seeds %d, hops %d. Lexical share in"
                + " fusion: %.2f. Run took %.0f s.%n%n",
            asked.size(),
            LocomoBenchmark.TUNING_CONVERSATIONS,
            options.embeddingName(),
            options.pack().label(),
            options.seeds(),
            options.hops(),
            options.lexicalShare(),
            seconds));
    b.append("Skipped questions: ").append(data.skipCounts("question")).append("; skipped");
    b.append(" evidence ids: ").append(data.skipCounts("evidence")).append("; sessions: ");
    b.append(data.skipCounts("session")).append(". Evidence entries repaired and used: ");
    b.append(data.skipped().stream().filter(x -> x.kind().equals("repaired")).count());
    b.append(
        " (lists split, ids with leading zeros read as numbers; every one is in the JSON).\n\n");
    int k0 = options.ks().get(0);
    int k1 = options.ks().size() > 1 ? options.ks().get(1) : k0;
    for (String split : List.of(LocomoBenchmark.HELD_OUT, LocomoBenchmark.TUNING)) {
      for (String level : LocomoBenchmark.LEVELS) {
        var bySystem = summary.get(split).get(level);
        int questions =
            bySystem.isEmpty()
                ? 0
                : (int)
                    Math.round(bySystem.values().iterator().next().get("overall").get("questions"));
        if (questions == 0) {
          continue;
        }
        b.append("### ")
            .append(
                split.equals(LocomoBenchmark.HELD_OUT)
                    ? "Held out (conversations 6-10)"
                    : "Tuning (conversations 1-5)")
            .append(", ")
            .append(
                level.equals("session_ranking")
                    ? "session ranking (each session by its best turn)"
                    : level + " level")
            .append(", ")
            .append(questions)
            .append(" questions\n\n");
        List<String> cols = new ArrayList<>();
        cols.add("system");
        for (int k : options.ks()) {
          cols.add("all@" + k);
          cols.add("any@" + k);
          cols.add("recall@" + k);
        }
        cols.add("nDCG@10");
        cols.add("MRR");
        Format.row(b, cols.toArray(String[]::new));
        Format.row(b, cols.stream().map(c -> "---").toArray(String[]::new));
        for (String system : systems) {
          Map<String, Double> m = bySystem.get(system).get("overall");
          List<String> cells = new ArrayList<>();
          cells.add(system);
          for (int k : options.ks()) {
            cells.add(Format.fixed(m.getOrDefault("recall_all@" + k, Double.NaN), 3));
            cells.add(Format.fixed(m.getOrDefault("recall_any@" + k, Double.NaN), 3));
            cells.add(Format.fixed(m.getOrDefault("recall@" + k, Double.NaN), 3));
          }
          cells.add(Format.fixed(m.getOrDefault("ndcg@10", Double.NaN), 3));
          cells.add(Format.fixed(m.getOrDefault("mrr", Double.NaN), 3));
          Format.row(b, cells.toArray(String[]::new));
        }
        b.append('\n');
        if (level.equals("turn")) {
          b.append("By category, turn level: recall_all@")
              .append(k0)
              .append(" / recall_all@")
              .append(k1)
              .append(" (questions)\n\n");
          List<String> head = new ArrayList<>();
          head.add("system");
          for (int c = 1; c <= 5; c++) {
            String name = LocomoData.CATEGORIES.get(c);
            head.add(
                name
                    + " ("
                    + Math.round(bySystem.get(systems.get(0)).get(name).get("questions"))
                    + ")");
          }
          Format.row(b, head.toArray(String[]::new));
          Format.row(b, head.stream().map(c -> "---").toArray(String[]::new));
          for (String system : systems) {
            List<String> cells = new ArrayList<>();
            cells.add(system);
            for (int c = 1; c <= 5; c++) {
              Map<String, Double> m = bySystem.get(system).get(LocomoData.CATEGORIES.get(c));
              cells.add(
                  Format.fixed(m.getOrDefault("recall_all@" + k0, Double.NaN), 3)
                      + " / "
                      + Format.fixed(m.getOrDefault("recall_all@" + k1, Double.NaN), 3));
            }
            Format.row(b, cells.toArray(String[]::new));
          }
          b.append('\n');
        }
      }
    }
    b.append(goal(summary, k0, k1));
    b.append(new LocomoCrossValidation(report).toMarkdown());
    b.append(LocomoConfig.toMarkdown(options));
    return b.toString();
  }

  /** The issue's goal on the held-out split, with the paired per-question wins and losses. */
  private String goal(
      Map<String, Map<String, Map<String, Map<String, Map<String, Double>>>>> summary,
      int k0,
      int k1) {
    var turn = summary.get(LocomoBenchmark.HELD_OUT).get("turn");
    var tuned = summary.get(LocomoBenchmark.TUNING).get("turn");
    // the goal asks for a hybrid or graph mode; hybrid with a lexical share of 1 is lexical alone
    boolean hybridFuses = options.lexicalShare() > 0 && options.lexicalShare() < 1;
    List<String> loci =
        options.variants().stream()
            .filter(
                v ->
                    v.mode().usesGraph()
                        || (v.mode() == RecallMode.HYBRID
                            && v.lexicalShare() > 0
                            && v.lexicalShare() < 1))
            .map(LocomoVariant::name)
            .toList();
    List<String> lexicalPeers = List.of("peer:lucene_bm25", "peer:sqlite_fts5");
    if (loci.isEmpty()
        || turn.isEmpty()
        || turn.get(loci.get(0)).get("overall").get("questions") == 0) {
      return "";
    }
    StringBuilder b = new StringBuilder("### Goal on held-out conversations\n\n");
    if (!hybridFuses && options.modes().contains(RecallMode.HYBRID)) {
      b.append("(hybrid is not a candidate: with a lexical share of ")
          .append(Format.fixed(options.lexicalShare(), 2))
          .append(" it does not fuse.)\n\n");
    }
    for (String[] g :
        List.of(
            new String[] {"overall", "recall_all@" + k0},
            new String[] {"multi-hop", "recall_all@" + k1})) {
      // the mode is chosen on the tuning split, so the held-out figure is not a maximum over
      // modes
      var chooseOn = tuned.get(loci.get(0)).get("overall").get("questions") > 0 ? tuned : turn;
      String best =
          loci.stream()
              .max(
                  java.util.Comparator.comparingDouble(
                      s -> chooseOn.get(s).get(g[0]).getOrDefault(g[1], 0.0)))
              .orElseThrow();
      double mine = turn.get(best).get(g[0]).getOrDefault(g[1], 0.0);
      b.append("- ").append(g[0]).append(' ').append(g[1]);
      b.append(chooseOn == tuned ? ": the mode best on tuning, " : ": the best mode, ");
      b.append(best).append(", held out ").append(Format.fixed(mine, 3));
      boolean beatsAll = true;
      for (String peer : lexicalPeers) {
        double theirs = turn.get(peer).get(g[0]).getOrDefault(g[1], 0.0);
        int[] wl = winsLosses(best, peer, g[0], g[1]);
        b.append("; ").append(peer).append(' ').append(Format.fixed(theirs, 3));
        b.append(String.format(Locale.ROOT, " (margin %+.3f, ", mine - theirs));
        b.append(wl[0]).append(" questions won, ").append(wl[1]).append(" lost)");
        beatsAll &= mine > theirs;
      }
      b.append(beatsAll ? ": **met**\n" : ": **not met**\n");
    }
    return b.append('\n').toString();
  }

  private int[] winsLosses(String system, String peer, String category, String metric) {
    int k = Integer.parseInt(metric.substring(metric.indexOf('@') + 1));
    int won = 0;
    int lost = 0;
    for (LocomoBenchmark.Asked a : asked) {
      if (!a.split().equals(LocomoBenchmark.HELD_OUT)
          || !(category.equals("overall")
              || LocomoData.CATEGORIES.get(a.question().category()).equals(category))) {
        continue;
      }
      Set<String> gold = new LinkedHashSet<>(a.question().evidence());
      double mine = LocomoMetrics.recallAll(a.ranked().get(system), gold, k);
      double theirs = LocomoMetrics.recallAll(a.ranked().get(peer), gold, k);
      won += mine > theirs ? 1 : 0;
      lost += mine < theirs ? 1 : 0;
    }
    return new int[] {won, lost};
  }

  /** The full report as JSON, with every question's rankings and turn-level scores. */
  String json() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("benchmark", "locomo");
    Map<String, Object> opts = new LinkedHashMap<>();
    opts.put("data", options.data().toString());
    opts.put("modes", options.modes().stream().map(RecallMode::wireName).toList());
    opts.put("ks", options.ks());
    opts.put("embedding", options.embeddingName());
    opts.put("embedding_model", options.embedding().modelId());
    opts.put("turn_text", options.pack().label());
    opts.put("seeds", options.seeds());
    opts.put("hops", options.hops());
    opts.put("lexical_shares", options.lexicalShares());
    opts.put("session_caps", options.sessionCaps());
    opts.put("context_weights", options.contextWeights());
    opts.put("length_norms", options.lengthNorms());
    root.put("config", LocomoConfig.knobs(options));
    options.weights().ifPresent(w -> opts.put("weights", w.asMap()));
    opts.put("tuning_conversations", "1-" + LocomoBenchmark.TUNING_CONVERSATIONS);
    root.put("options", opts);
    root.put("machine", JsonFile.parse(machine.toJson()));
    root.put("seconds", seconds);
    root.put("systems", systems);
    Map<String, Object> skipped = new LinkedHashMap<>();
    for (String kind : List.of("question", "evidence", "session", "repaired")) {
      skipped.put(kind, data.skipCounts(kind));
    }
    skipped.put(
        "items",
        data.skipped().stream()
            .map(s -> Map.of("kind", s.kind(), "where", s.where(), "reason", s.reason()))
            .toList());
    root.put("skipped", skipped);
    root.put("summary", report.summary());
    root.put("cross_validation", new LocomoCrossValidation(report).toJson());
    List<Object> questions = new ArrayList<>();
    for (LocomoBenchmark.Asked a : asked) {
      Map<String, Object> q = new LinkedHashMap<>();
      q.put("id", a.question().id());
      q.put("conversation", a.conversation());
      q.put("split", a.split());
      q.put("category", a.question().category());
      q.put("question", a.question().text());
      q.put("evidence", a.question().evidence());
      Map<String, Object> results = new LinkedHashMap<>();
      for (String system : systems) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("ranked", a.ranked().get(system));
        r.put("turn", LocomoBenchmark.scores(a, system, "turn", options.ks()));
        results.put(system, r);
      }
      q.put("results", results);
      questions.add(q);
    }
    root.put("questions", questions);
    return JsonFile.write(root);
  }
}
