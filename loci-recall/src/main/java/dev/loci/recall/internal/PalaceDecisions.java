package dev.loci.recall.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.recall.Feedback;
import dev.loci.recall.FeedbackReport;
import dev.loci.recall.LifecycleTransition;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.SweepReport;
import dev.loci.recall.internal.LifecycleRules.Life;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The palace's commands, decided against current state: feedback (uses, and a useful route stored
 * as a route memory), the lifecycle sweep, and the namespace's half-life. Each returns the events
 * of one atomic batch, recall-graph events included where a route is stored. Call inside a command
 * (the engine's exclusive decision).
 */
public final class PalaceDecisions {
  /** The weight of a route's {@code route_to} edges. */
  static final double ROUTE_TO = 0.9;

  private final PalaceView view;

  /** Decisions over {@code view}'s layers. */
  public PalaceDecisions(PalaceView view) {
    this.view = view;
  }

  /**
   * Records a use of every memory {@code f} names (route steps included), and stores a useful route
   * as a route memory, itself used.
   *
   * @throws NotFoundException naming {@code node_ids[i]} or {@code route[i]} for a memory that is
   *     not a live node
   */
  public Decision<FeedbackReport> feedback(Namespace ns, Feedback f, Instant now) {
    RecallLayer graph = view.graph();
    Set<String> ids = new LinkedHashSet<>();
    for (int i = 0; i < f.nodeIds().size(); i++) {
      live(ns, f.nodeIds().get(i), "node_ids[" + i + "]");
      ids.add(f.nodeIds().get(i));
    }
    for (int i = 0; i < f.route().size(); i++) {
      live(ns, f.route().get(i), "route[" + i + "]");
      ids.add(f.route().get(i));
    }
    List<Event> events = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>();
    List<LifecycleTransition> transitions = new ArrayList<>();
    Optional<String> routeId = Optional.empty();
    Optional<MemoryNode> newRoute = Optional.empty();
    if (f.useful() && !f.route().isEmpty()) {
      String id = routeId(f.route());
      routeId = Optional.of(id);
      if (view.palace().route(ns, id).isEmpty() || graph.node(ns, id).isEmpty()) {
        MemoryNode node = routeNode(ns, id, f.route());
        List<MemoryEdge> edges = new ArrayList<>();
        for (int i = 0; i < f.route().size(); i++) {
          String step = f.route().get(i);
          if (edges.stream().noneMatch(e -> e.to().equals(step))) {
            edges.add(MemoryEdge.of(id, step, "route_to", ROUTE_TO));
          }
        }
        Decision<RecallLayer.Written> w =
            graph.decideWrite(
                ns, now, List.of(node), edges, List.of(), List.of(), Optional.empty());
        events.addAll(w.events());
        keys.addAll(w.keys());
        if (view.palace().route(ns, id).isEmpty()) {
          events.add(PalaceLayer.routeStored(id, f.route()));
        }
        newRoute = Optional.of(node);
      }
      ids.add(id);
    }
    Optional<MemoryNode> storing = newRoute;
    for (String id : ids) {
      keys.add("p:" + id);
      MemoryNode n = graph.node(ns, id).orElseGet(storing::orElseThrow); // the route being stored
      Life life = view.palace().life(ns, id);
      double now0 =
          graph.node(ns, id).isPresent()
              ? view.stability(ns, n, life, now)
              : LifecycleRules.INITIAL;
      double after = LifecycleRules.afterUse(now0, f.useful());
      long count = life.reinforcements() + (f.useful() ? 1 : 0);
      events.add(PalaceLayer.used(id, f.useful(), count, after, now));
      for (LifecycleRules.Step s : LifecycleRules.onUse(life.state(), f.useful(), count, after)) {
        events.add(PalaceLayer.transition(id, s.from(), s.to(), s.reason(), now));
        transitions.add(new LifecycleTransition(id, s.from(), s.to(), s.reason(), now));
      }
    }
    return new Decision<>(events, keys, new FeedbackReport(List.copyOf(ids), transitions, routeId));
  }

  private void live(Namespace ns, String id, String field) {
    if (view.graph().node(ns, id).isEmpty()) {
      throw new NotFoundException(field, "no live memory '" + id + "' in " + ns);
    }
  }

  /** The id of the route through {@code steps}: {@code route:} and 16 hex digits of SHA-256. */
  public static String routeId(List<String> steps) {
    return "route:" + PalaceBridge.digest(steps);
  }

  private MemoryNode routeNode(Namespace ns, String id, List<String> steps) {
    StringBuilder content = new StringBuilder("route:");
    for (String s : steps) {
      MemoryNode n = view.graph().node(ns, s).orElseThrow();
      String text = n.content().length() > 80 ? n.content().substring(0, 80) + "..." : n.content();
      content.append(content.length() > 6 ? " -> " : " ").append(text);
    }
    MemoryNode first = view.graph().node(ns, steps.get(0)).orElseThrow();
    MemoryNode.Builder b =
        MemoryNode.builder(id, PalaceBridge.ROUTE_TYPE, content.toString())
            .importance(0.5)
            .attribute("pack", "palace")
            .attribute("route_steps", String.join(" -> ", steps));
    PalaceBridge.spaceId(first).ifPresent(s -> b.attribute("space", s));
    return b.build();
  }

  /**
   * Records the state changes time has caused in {@code ns} by {@code now}: every live memory whose
   * decayed stability crossed a threshold.
   */
  public Decision<SweepReport> sweep(Namespace ns, Instant now) {
    List<Event> events = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>();
    List<LifecycleTransition> transitions = new ArrayList<>();
    List<MemoryNode> nodes = view.graph().nodes(ns);
    for (MemoryNode n : nodes) {
      Life life = view.palace().life(ns, n.id());
      if (life.state() == dev.loci.recall.LifecycleState.ARCHIVED) {
        continue;
      }
      double s = view.stability(ns, n, life, now);
      if (s >= LifecycleRules.FADING_BELOW
          && life.state() != dev.loci.recall.LifecycleState.FADING) {
        continue;
      }
      Instant since = life.since().or(() -> view.graph().firstPut(ns, n.id())).orElse(now);
      for (LifecycleRules.Step st :
          LifecycleRules.onTime(life.state(), s, Duration.between(since, now))) {
        keys.add("p:" + n.id());
        events.add(PalaceLayer.transition(n.id(), st.from(), st.to(), st.reason(), now));
        transitions.add(new LifecycleTransition(n.id(), st.from(), st.to(), st.reason(), now));
      }
    }
    return new Decision<>(events, keys, new SweepReport(now, nodes.size(), transitions));
  }

  /** Sets the half-life of {@code ns}. */
  public Decision<Duration> policy(Namespace ns, Duration halfLife) {
    if (halfLife.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new InvalidRequestException("half_life", "expected at least one second");
    }
    return new Decision<>(List.of(PalaceLayer.policy(halfLife)), Set.of("p:policy"), halfLife);
  }
}
