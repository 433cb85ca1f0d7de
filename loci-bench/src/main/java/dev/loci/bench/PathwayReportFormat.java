package dev.loci.bench;

import java.util.List;
import java.util.Locale;

/** The Markdown and JSON forms of a {@link PathwayBenchmark.Report}. */
final class PathwayReportFormat {
  private PathwayReportFormat() {}

  /** The results as a Markdown section: machine, method, and one table over every size. */
  static String markdown(PathwayBenchmark.Report r) {
    Machine machine = r.machine();
    PathwayBenchmark.Options options = r.options();
    List<PathwayBenchmark.SizeResult> sizes = r.sizes();
    StringBuilder b = new StringBuilder(machine.toMarkdown());
    b.append("Data: ").append(BenchPathways.DESCRIPTION).append(" (seed ");
    b.append(options.seed()).append("). Each size is a fresh store under durability `always`:");
    b.append(" all but the measured inserts are imported with `importRustState` from generated");
    b.append(" `state.json` streams of ").append(Format.count(PathwayBenchmark.IMPORT_CALL));
    b.append(" traces, then the single `insert`s are timed per writer count, in order, into");
    b.append(" the grown store. Queries run on one thread after ")
        .append(PathwayBenchmark.QUERY_WARMUP);
    b.append(" unmeasured ones: `query_for_hotswap` with 90% of inputs from stored traces and");
    b.append(" 10% fresh; `query_by_vec` with half the vectors from stored traces and half");
    b.append(" fresh. The exact scan holds the same head traces in a `List<PathwayTrace>`:");
    b.append(" `PathwayVec.cosine` for each, sort all, take k (hot-swap: keep the pathway's");
    b.append(" traces, sort in spec order). Every Loci answer is checked against the scan's.\n\n");
    b.append("| Traces | Measurement | Result | Detail |\n");
    b.append("|---:|---|---:|---|\n");
    for (PathwayBenchmark.SizeResult s : sizes) {
      String n = Format.count(s.traces());
      Format.row(
          b,
          n,
          "Population: `importRustState`",
          Format.rate(s.imported() / s.importSeconds()) + " traces/s",
          Format.count(s.imported())
              + " in "
              + Format.fixed(s.importSeconds(), 2)
              + " s; "
              + Format.count(s.pathways())
              + " pathways, journal "
              + Format.mib(s.journalBytes())
              + " at the end");
      for (PathwayBenchmark.InsertResult i : s.inserts()) {
        Format.row(
            b,
            n,
            "`insert`, `always`, " + i.writers() + (i.writers() == 1 ? " writer" : " writers"),
            Format.rate(i.throughput().perSecond()) + " inserts/s",
            i.throughput().detail() + "; store held " + Format.count(i.storeTraces()));
      }
      queryRows(b, n, "`query_for_hotswap`", s.hotswap());
      queryRows(b, n, "`query_by_vec`", s.byVec());
      Format.row(
          b,
          n,
          "Heap",
          Format.mib(s.lociHeapBytes()),
          Format.count(s.lociHeapBytes() / s.traces())
              + " bytes/trace; the exact scan's list "
              + Format.mib(s.scanHeapBytes()));
    }
    return b.toString();
  }

  private static void queryRows(
      StringBuilder b, String n, String what, PathwayBenchmark.QueryResult q) {
    String queries = Format.count(q.loci().queries()) + " queries, k=" + q.k();
    Format.row(
        b,
        n,
        what + ", Loci",
        q.loci().detail(),
        queries + ", mean " + PathwayBenchmark.micros(q.loci().meanMicros()));
    Format.row(
        b,
        n,
        what + ", exact scan",
        q.scan().detail(),
        queries + ", mean " + PathwayBenchmark.micros(q.scan().meanMicros()));
    Format.row(
        b,
        n,
        what + ", scan p50 / Loci p50",
        "**" + (q.ratio() >= 100 ? Format.rate(q.ratio()) : Format.fixed(q.ratio(), 1)) + "x**",
        "answers equal to the scan's (recall "
            + Format.fixed(q.recall(), 1)
            + "); same order in "
            + Format.count(q.sameOrder())
            + " of "
            + Format.count(q.loci().queries())
            + (q.sameOrder() == q.loci().queries()
                ? ""
                : String.format(
                    Locale.ROOT,
                    ", the rest reordered among equal scores (exact cosines at most %.1e apart)",
                    q.maxTieGap())));
  }

  /** The results as one JSON object with every figure. */
  static String json(PathwayBenchmark.Report report) {
    Machine machine = report.machine();
    PathwayBenchmark.Options options = report.options();
    List<PathwayBenchmark.SizeResult> sizes = report.sizes();
    StringBuilder b = new StringBuilder();
    b.append("{\n  \"benchmark\": \"pathway\",\n  \"machine\": ").append(machine.toJson());
    b.append(",\n  \"options\": {");
    b.append("\"work_dir\": ").append(Format.quote(options.workDir().toString()));
    b.append(", \"sizes\": ").append(options.sizes());
    b.append(", \"writer_counts\": ").append(options.writerCounts());
    b.append(", \"inserts\": ").append(options.inserts());
    b.append(", \"vec_queries\": ").append(options.queries());
    b.append(", \"seed\": ").append(options.seed());
    b.append(", \"jit_warmup_traces\": ").append(options.jitWarmupTraces());
    b.append(", \"import_call_traces\": ").append(PathwayBenchmark.IMPORT_CALL);
    b.append(", \"query_warmup\": ").append(PathwayBenchmark.QUERY_WARMUP);
    b.append(", \"score_tolerance\": ").append(PathwayBenchmark.SCORE_TOLERANCE);
    b.append("},\n  \"sizes\": [");
    for (int i = 0; i < sizes.size(); i++) {
      PathwayBenchmark.SizeResult s = sizes.get(i);
      b.append(i == 0 ? "\n    " : ",\n    ");
      b.append("{\"traces\": ").append(s.traces());
      b.append(", \"pathways\": ").append(s.pathways());
      b.append(", \"imported\": ").append(s.imported());
      b.append(", \"import_seconds\": ").append(Format.number(s.importSeconds()));
      b.append(", \"import_traces_per_second\": ")
          .append(Format.number(s.imported() / s.importSeconds()));
      b.append(", \"journal_bytes\": ").append(s.journalBytes());
      b.append(",\n     \"inserts\": [");
      for (int j = 0; j < s.inserts().size(); j++) {
        PathwayBenchmark.InsertResult r = s.inserts().get(j);
        b.append(j == 0 ? "" : ", ");
        b.append("{\"writers\": ").append(r.writers());
        b.append(", \"store_traces\": ").append(r.storeTraces());
        b.append(", \"throughput\": ").append(r.throughput().toJson()).append("}");
      }
      b.append("],\n     \"query_for_hotswap\": ").append(s.hotswap().toJson());
      b.append(",\n     \"query_by_vec\": ").append(s.byVec().toJson());
      b.append(",\n     \"loci_heap_bytes\": ").append(s.lociHeapBytes());
      b.append(", \"scan_heap_bytes\": ").append(s.scanHeapBytes()).append("}");
    }
    b.append("\n  ]\n}\n");
    return b.toString();
  }
}
