package dev.loci.ui.internal;

import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Traces;
import dev.loci.govern.GovernedMemory;
import dev.loci.pathway.PathwayMemory;
import dev.loci.pathway.PathwayStats;
import dev.loci.recall.GraphStats;
import dev.loci.recall.RecallMemory;
import dev.loci.server.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The namespace tree (the UI's home page) and one namespace's overview: how many records of each
 * kind it holds, its writes in the last hour and its last write (from the journal's tail). Only
 * namespaces the viewer may read appear.
 */
public final class NamespacePages {
  /**
   * One row of the tree.
   *
   * @param namespace the namespace
   * @param depth its depth below the top (0 for a top-level label)
   * @param label its last label
   * @param traces traces held, retired included
   * @param nodes live graph nodes
   * @param edges live graph edges
   * @param lastWrite when it was last written (the journal's tail, else its newest trace)
   * @param writesLastHour journal batches it received in the last hour, if the journal is a file
   * @param holdsRecords false for an ancestor shown only to place its descendants
   */
  public record Row(
      Namespace namespace,
      int depth,
      String label,
      long traces,
      long nodes,
      long edges,
      Optional<Instant> lastWrite,
      Optional<Integer> writesLastHour,
      boolean holdsRecords) {}

  /**
   * One namespace's overview.
   *
   * @param namespace the namespace
   * @param traces traces held
   * @param newest when its newest trace was created
   * @param recent its recent writes, from the journal's tail
   * @param graph the memory graph's counts
   * @param pathways the pathway layer's counts
   * @param memories governed memories
   * @param candidates candidates waiting for review
   * @param openConflicts open conflicts
   */
  public record Overview(
      Namespace namespace,
      long traces,
      Optional<Instant> newest,
      Optional<JournalActivity.Recent> recent,
      GraphStats graph,
      PathwayStats pathways,
      int memories,
      int candidates,
      int openConflicts) {}

  private final Web web;
  private final Traces traces;
  private final RecallMemory recall;
  private final GovernedMemory governed;
  private final PathwayMemory pathways;
  private final JournalActivity activity;

  /** The pages over these layers, with the journal's recent {@code activity}. */
  public NamespacePages(
      Web web,
      Traces traces,
      RecallMemory recall,
      GovernedMemory governed,
      PathwayMemory pathways,
      JournalActivity activity) {
    this.web = web;
    this.activity = activity;
    this.traces = traces;
    this.recall = recall;
    this.governed = governed;
    this.pathways = pathways;
  }

  /** Registers {@code /ui}, {@code /ui/go} and {@code /ui/ns/{ns}}. */
  public void register() {
    web.get(
        "/ui",
        Role.READER,
        req ->
            req.page(
                "namespaces.jte",
                req.chrome("Namespaces", "namespaces", Optional.empty()),
                tree(req.viewer())));
    web.get(
        "/ui/go",
        Role.READER,
        req -> {
          String raw =
              req.query("ns")
                  .orElseThrow(
                      () -> PageProblem.badField("ns", "expected a namespace such as acme.alice"));
          Namespace ns;
          try {
            ns = Namespace.of(raw);
          } catch (RuntimeException e) {
            throw PageProblem.badField(
                "ns", "expected a dotted namespace such as acme.alice, found '" + raw + "'");
          }
          req.redirect("/ui/ns/" + ns);
        });
    web.get(
        "/ui/ns/{ns}",
        Role.READER,
        req -> {
          Namespace ns = req.ns();
          req.page(
              "namespace.jte",
              req.chrome(ns.toString(), "overview", Optional.of(ns)),
              overview(ns));
        });
  }

  /** The tree of every namespace the viewer may read, ancestors included, sorted. */
  List<Row> tree(Viewer viewer) {
    TreeMap<Namespace, long[]> counts = new TreeMap<>();
    TreeMap<Namespace, Instant> newest = new TreeMap<>();
    for (Traces.NamespaceCount c : traces.namespaces()) {
      if (viewer.reads(c.namespace())) {
        counts.computeIfAbsent(c.namespace(), k -> new long[3])[0] = c.traces();
        newest.put(c.namespace(), c.newest());
      }
    }
    for (Namespace ns : recall.namespaces()) {
      if (viewer.reads(ns)) {
        GraphStats g = recall.stats(ns);
        long[] a = counts.computeIfAbsent(ns, k -> new long[3]);
        a[1] = g.nodes();
        a[2] = g.edges();
      }
    }
    Map<String, JournalActivity.Recent> recent = activity.now().byNamespace();
    for (String name : recent.keySet()) {
      Namespace ns = Namespace.of(name);
      if (viewer.reads(ns)) {
        counts.computeIfAbsent(ns, k -> new long[3]);
      }
    }
    TreeMap<Namespace, Boolean> all = new TreeMap<>();
    for (Namespace ns : counts.keySet()) {
      all.put(ns, true);
      for (Optional<Namespace> p = ns.parent(); p.isPresent(); p = p.get().parent()) {
        all.putIfAbsent(p.get(), false);
      }
    }
    List<Row> rows = new ArrayList<>(all.size());
    all.forEach(
        (ns, holds) -> {
          long[] a = counts.getOrDefault(ns, new long[3]);
          String text = ns.toString();
          int depth = (int) text.chars().filter(ch -> ch == '.').count();
          Optional<JournalActivity.Recent> r = Optional.ofNullable(recent.get(text));
          rows.add(
              new Row(
                  ns,
                  depth,
                  text.substring(text.lastIndexOf('.') + 1),
                  a[0],
                  a[1],
                  a[2],
                  r.map(JournalActivity.Recent::last).or(() -> Optional.ofNullable(newest.get(ns))),
                  r.map(JournalActivity.Recent::lastHour),
                  holds));
        });
    return rows;
  }

  private Overview overview(Namespace ns) {
    long count = traces.count(NamespaceScope.exactly(ns));
    Optional<Instant> newestTrace =
        traces.namespaces().stream()
            .filter(c -> c.namespace().equals(ns))
            .map(Traces.NamespaceCount::newest)
            .findFirst();
    return new Overview(
        ns,
        count,
        newestTrace,
        Optional.ofNullable(activity.now().byNamespace().get(ns.toString())),
        recall.stats(ns),
        pathways.stats(NamespaceScope.exactly(ns)),
        governed.list(ns, Optional.empty(), Optional.empty()).size(),
        governed.candidates(ns).size(),
        governed.conflicts(ns, Optional.of(dev.loci.govern.Conflict.Status.OPEN)).size());
  }
}
