package dev.loci.ui.internal;

import dev.loci.Namespace;
import dev.loci.Page;
import dev.loci.recall.EvidenceRef;
import dev.loci.recall.GraphStats;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecordVersion;
import dev.loci.server.Role;
import java.util.List;
import java.util.Optional;

/**
 * The memory graph: node and edge counts by type, a page of nodes, and one node with its edges
 * (both directions), its evidence (file, section, lines, characters) and, for a {@code legal}
 * credential, its version history.
 */
public final class GraphPages {
  /** Nodes per page. */
  static final int PAGE = 100;

  /**
   * The graph overview.
   *
   * @param ns the namespace
   * @param stats counts by type
   * @param nodes a page of nodes
   * @param type the node type filter, empty for all
   */
  public record Overview(
      Namespace ns, GraphStats stats, Page<RecordVersion<MemoryNode>> nodes, String type) {}

  /**
   * One node.
   *
   * @param ns the namespace
   * @param node its newest version
   * @param outgoing edges from it
   * @param incoming edges into it
   * @param history every version newest first, for a legal credential
   * @param historyHidden why the history is not shown, when it is not
   */
  public record NodeView(
      Namespace ns,
      RecordVersion<MemoryNode> node,
      List<MemoryEdge> outgoing,
      List<MemoryEdge> incoming,
      List<RecordVersion<MemoryNode>> history,
      Optional<String> historyHidden) {
    /** The node's evidence as {@code file § section, lines a-b, characters c-d}. */
    public Optional<String> evidence() {
      return node.value().sourceRef().map(GraphPages::describe);
    }
  }

  private final Web web;
  private final RecallMemory recall;

  /** The pages over {@code recall}'s graph. */
  public GraphPages(Web web, RecallMemory recall) {
    this.web = web;
    this.recall = recall;
  }

  /** Registers {@code /ui/ns/{ns}/graph} and {@code /ui/ns/{ns}/graph/node/{id}}. */
  public void register() {
    web.get("/ui/ns/{ns}/graph", Role.READER, this::overview);
    web.get("/ui/ns/{ns}/graph/node/{id}", Role.READER, this::node);
  }

  static String describe(EvidenceRef e) {
    StringBuilder sb = new StringBuilder(e.path());
    e.section().ifPresent(s -> sb.append(" § ").append(s));
    e.lines().ifPresent(l -> sb.append(", lines ").append(l.start()).append('–').append(l.end()));
    e.chars()
        .ifPresent(c -> sb.append(", characters ").append(c.start()).append('–').append(c.end()));
    return sb.toString();
  }

  private void overview(Req req) {
    Namespace ns = req.ns();
    Optional<String> type = req.query("type");
    Page<RecordVersion<MemoryNode>> page;
    if (type.isPresent()) {
      List<RecordVersion<MemoryNode>> ofType =
          recall.nodes(ns).stream()
              .filter(n -> n.type().equals(type.get()))
              .limit(PAGE)
              .map(n -> recall.nodeVersion(ns, n.id()))
              .toList();
      page = new Page<>(ofType, Optional.empty());
    } else {
      page = recall.nodes(ns, PAGE, req.query("cursor"));
    }
    req.page(
        "graph.jte",
        req.chrome("Memory graph · " + ns, "graph", Optional.of(ns)),
        new Overview(ns, recall.stats(ns), page, type.orElse("")));
  }

  private void node(Req req) {
    Namespace ns = req.ns();
    String id = req.ctx().pathParam("id");
    RecordVersion<MemoryNode> v = recall.nodeVersion(ns, id);
    List<MemoryEdge> edges = recall.edges(ns, id);
    List<RecordVersion<MemoryNode>> history = List.of(v);
    Optional<String> hidden = Optional.empty();
    if (req.viewer().legal().isPresent()) {
      history = recall.nodeHistory(ns, id, req.viewer().legal().get());
    } else if (v.version() > 1) {
      hidden =
          Optional.of(
              "Earlier versions may carry personal data: only a legal credential sees them (as on"
                  + " the API).");
    }
    req.page(
        "node.jte",
        req.chrome(id + " · " + ns, "graph", Optional.of(ns)),
        new NodeView(
            ns,
            v,
            edges.stream().filter(e -> e.from().equals(id)).toList(),
            edges.stream().filter(e -> !e.from().equals(id)).toList(),
            history,
            hidden));
  }
}
