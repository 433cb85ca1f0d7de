package dev.loci.recall.internal;

import dev.loci.ConflictException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.recall.ConsolidationReport;
import dev.loci.recall.LinkType;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Consolidation: episodic memories that repeat the same content in two or more spaces (sessions)
 * become one semantic memory linked by {@code summarizes} to each of them. Rule-based and
 * extractive: no model; the summary quotes its first source verbatim and names every source.
 *
 * <p>Design. Two episodes say "the same" when their content, with any leading {@code speaker:}
 * dropped, has the same set of words of three letters or more (lower-cased, punctuation and order
 * ignored). The summary's id is {@code semantic:} and 16 hex digits of the SHA-256 of that word
 * set, so running again finds it: a group whose summary is live with the same sources writes
 * nothing (consolidation is idempotent), a group that gained a source gets a new version and the
 * new {@code summarizes} edge. Archived episodes are left out. Each run that writes is recorded
 * with its id and summaries, so it can be undone: the summaries it made are removed (their history
 * kept), the episodes untouched.
 */
public final class Consolidator {
  /** The weight of a {@code summarizes} edge. */
  static final double SUMMARIZES = 0.8;

  private final PalaceView view;

  /** A consolidator over {@code view}'s layers. */
  public Consolidator(PalaceView view) {
    this.view = view;
  }

  /** Consolidates {@code ns}; {@code runId} names the run if it writes. */
  public Decision<ConsolidationReport> consolidate(Namespace ns, String runId, Instant now) {
    RecallLayer graph = view.graph();
    Map<String, List<MemoryNode>> groups = new TreeMap<>();
    int examined = 0;
    for (MemoryNode n : graph.nodes(ns)) {
      if (!PalaceBridge.kind(n).equals("episodic") || view.palace().archived(ns).contains(n.id())) {
        continue;
      }
      examined++;
      String key = key(n.content());
      if (!key.isEmpty()) {
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
      }
    }
    List<MemoryNode> nodes = new ArrayList<>();
    List<MemoryEdge> edges = new ArrayList<>();
    Map<String, List<String>> summaries = new LinkedHashMap<>();
    for (Map.Entry<String, List<MemoryNode>> g : groups.entrySet()) {
      List<MemoryNode> members = g.getValue();
      Set<String> spaces = new TreeSet<>();
      members.forEach(m -> PalaceBridge.spaceId(m).ifPresent(spaces::add));
      if (members.size() < 2 || spaces.size() < 2) {
        continue;
      }
      String id = "semantic:" + PalaceBridge.digest(List.of(g.getKey()));
      List<String> sources = members.stream().map(MemoryNode::id).toList();
      MemoryNode summary = summary(id, members, spaces);
      boolean same =
          graph.node(ns, id).filter(summary::equals).isPresent()
              && sources.stream()
                  .allMatch(
                      s ->
                          graph.edgesOf(ns, id).stream()
                              .anyMatch(
                                  e ->
                                      e.to().equals(s)
                                          && e.edgeType().equals(LinkType.SUMMARIZES.wireName())));
      if (same) {
        continue;
      }
      nodes.add(summary);
      for (String s : sources) {
        edges.add(MemoryEdge.of(id, s, LinkType.SUMMARIZES.wireName(), SUMMARIZES));
      }
      summaries.put(id, sources);
    }
    if (summaries.isEmpty()) {
      return new Decision<>(
          List.of(), Set.of(), new ConsolidationReport(Optional.empty(), examined, Map.of()));
    }
    Decision<RecallLayer.Written> w =
        graph.decideWrite(ns, now, nodes, edges, List.of(), List.of(), Optional.empty());
    List<Event> events = new ArrayList<>(w.events());
    events.add(PalaceLayer.consolidated(runId, summaries));
    Set<String> keys = new LinkedHashSet<>(w.keys());
    keys.add("p:consolidation");
    return new Decision<>(
        events, keys, new ConsolidationReport(Optional.of(runId), examined, summaries));
  }

  /**
   * Undoes consolidation run {@code runId}: removes its summaries that are still live.
   *
   * @throws NotFoundException naming {@code id} if {@code ns} has no such run
   * @throws ConflictException naming {@code id} if it was undone already
   */
  public Decision<ConsolidationReport> undo(Namespace ns, String runId, Instant now) {
    PalaceLayer.Consolidation run =
        view.palace().consolidations(ns).stream()
            .filter(c -> c.id().equals(runId))
            .findFirst()
            .orElseThrow(
                () -> new NotFoundException("id", "no consolidation run '" + runId + "' in " + ns));
    if (run.undone()) {
      throw new ConflictException("consolidation run '" + runId + "' was already undone");
    }
    List<String> remove =
        new TreeSet<>(run.summaries().keySet())
            .stream().filter(id -> view.graph().node(ns, id).isPresent()).toList();
    Decision<RecallLayer.Written> w =
        view.graph()
            .decideWrite(ns, now, List.of(), List.of(), remove, List.of(), Optional.empty());
    List<Event> events = new ArrayList<>(w.events());
    events.add(PalaceLayer.undone(runId));
    Set<String> keys = new LinkedHashSet<>(w.keys());
    keys.add("p:consolidation");
    return new Decision<>(
        events, keys, new ConsolidationReport(Optional.of(runId), 0, run.summaries()));
  }

  private static MemoryNode summary(String id, List<MemoryNode> members, Set<String> spaces) {
    String quote = members.get(0).content();
    String content =
        "Repeated in "
            + spaces.size()
            + " sessions ("
            + String.join(", ", spaces)
            + "): \""
            + quote
            + "\"";
    return MemoryNode.builder(id, PalaceBridge.SUMMARY_TYPE, content)
        .importance(0.6)
        .attribute("pack", "palace")
        .attribute("summarizes", String.join(",", members.stream().map(MemoryNode::id).toList()))
        .build();
  }

  /** The words of {@code content} (speaker dropped) that decide sameness, sorted and joined. */
  static String key(String content) {
    String text = content.replaceFirst("^[^:]{1,64}:\\s", "");
    Set<String> words = new TreeSet<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (w.length() >= 3) {
        words.add(w);
      }
    }
    return String.join(" ", words);
  }
}
