package dev.loci.ui.internal;

import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.pathway.PathwayMemory;
import dev.loci.pathway.PathwayStats;
import dev.loci.pathway.PathwayTrace;
import dev.loci.server.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Pathway traces grouped by pathway: each pathway's task class and file, its head traces, replays
 * and success rate, and where it stands in the probation gate (spec section 5.4: after {@value
 * #GATE_REPLAYS} replays, a success rate under 80 % retires the pathway).
 */
public final class PathwayPages {
  /** Replays before the probation gate can fire. */
  static final int GATE_REPLAYS = 3;

  /** The success rate under which the gate retires a pathway. */
  static final double GATE_RATE = 0.80;

  /** The most pathways listed on the page. */
  static final int MAX_LISTED = 500;

  /**
   * One pathway.
   *
   * @param id the pathway id
   * @param heads its head traces (the newest version of each chain)
   * @param replays replays recorded on the heads
   * @param succeeded replays that succeeded
   * @param retired whether the probation gate retired it
   */
  public record Pathway(
      String id, List<PathwayTrace> heads, long replays, long succeeded, boolean retired) {
    /** Where the pathway stands in the probation gate, in words. */
    public String probation() {
      if (retired) {
        return "retired by the probation gate";
      }
      if (replays < GATE_REPLAYS) {
        return "on probation (" + replays + " of " + GATE_REPLAYS + " replays)";
      }
      return (double) succeeded / replays >= GATE_RATE ? "passed probation" : "below the gate";
    }

    /** The CSS class of the probation pill. */
    public String css() {
      if (retired) {
        return "pill bad";
      }
      return replays < GATE_REPLAYS ? "pill warn" : "pill good";
    }

    /** The first head, which names the task and file. */
    public PathwayTrace first() {
      return heads.get(0);
    }
  }

  /**
   * The page.
   *
   * @param ns the namespace
   * @param stats the layer's counts
   * @param pathways the pathways, up to {@value #MAX_LISTED}
   * @param more how many were not listed
   */
  public record Listing(Namespace ns, PathwayStats stats, List<Pathway> pathways, int more) {}

  private final Web web;
  private final PathwayMemory pathways;

  /** The page over {@code pathways}. */
  public PathwayPages(Web web, PathwayMemory pathways) {
    this.web = web;
    this.pathways = pathways;
  }

  /** Registers {@code /ui/ns/{ns}/pathways}. */
  public void register() {
    web.get("/ui/ns/{ns}/pathways", Role.READER, this::list);
  }

  private void list(Req req) {
    Namespace ns = req.ns();
    NamespaceScope scope = NamespaceScope.exactly(ns);
    List<String> ids = pathways.pathwayIds(scope);
    List<Pathway> listed = new ArrayList<>();
    for (String id : ids.subList(0, Math.min(ids.size(), MAX_LISTED))) {
      List<PathwayTrace> heads = pathways.pathway(scope, id, true);
      if (heads.isEmpty()) {
        continue;
      }
      long replays = heads.stream().mapToLong(PathwayTrace::replayCount).sum();
      long ok = heads.stream().mapToLong(PathwayTrace::replaysSucceeded).sum();
      listed.add(
          new Pathway(id, heads, replays, ok, heads.stream().allMatch(PathwayTrace::retired)));
    }
    req.page(
        "pathways.jte",
        req.chrome("Pathways · " + ns, "pathways", Optional.of(ns)),
        new Listing(ns, pathways.stats(scope), listed, Math.max(0, ids.size() - MAX_LISTED)));
  }
}
