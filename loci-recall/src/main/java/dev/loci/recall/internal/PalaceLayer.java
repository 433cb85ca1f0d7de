package dev.loci.recall.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.recall.LifecycleState;
import dev.loci.recall.LifecycleTransition;
import dev.loci.recall.internal.LifecycleRules.Life;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SnapshotRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The memory palace projection: per namespace, the recorded lifecycle of every memory that was ever
 * used or changed state (others are {@link Life#NEW} from their first put), the transitions each
 * went through, the namespace's half-life, the stored routes and the consolidations.
 *
 * <p>The palace's memories, spaces and links are the recall graph's nodes and edges seen through
 * {@link PalaceBridge}; this layer holds only what the graph does not. Every value an event sets is
 * in the event (the stability after a use, the state after a transition), so apply does no
 * arithmetic and replay from the journal or from a snapshot gives the same state to the last bit.
 *
 * <p>Events (data fields):
 *
 * <ul>
 *   <li>{@code palace.used}: {@code id}, {@code useful}, {@code reinforcement_count}, {@code
 *       stability}, {@code at};
 *   <li>{@code palace.transition}: {@code id}, {@code from}, {@code to}, {@code reason}, {@code
 *       at};
 *   <li>{@code palace.policy_set}: {@code half_life_seconds};
 *   <li>{@code palace.route_stored}: {@code id}, {@code steps};
 *   <li>{@code palace.consolidated}: {@code id}, {@code summaries} ({@code node}, {@code sources});
 *   <li>{@code palace.consolidation_undone}: {@code id}.
 * </ul>
 *
 * <p>Not thread-safe by itself: the engine serializes changes and guards reads.
 */
public final class PalaceLayer implements Layer {
  /** The layer's name and event-type prefix. */
  public static final String NAME = "palace";

  static final String USED = "palace.used";
  static final String TRANSITION = "palace.transition";
  static final String POLICY = "palace.policy_set";
  static final String ROUTE = "palace.route_stored";
  static final String CONSOLIDATED = "palace.consolidated";
  static final String UNDONE = "palace.consolidation_undone";

  /** One consolidation run: the summaries it made, each with its sources. */
  public record Consolidation(String id, Map<String, List<String>> summaries, boolean undone) {}

  private static final class State {
    final Map<String, Life> lives = new HashMap<>();
    final Map<String, List<LifecycleTransition>> history = new HashMap<>();
    final Set<String> archived = new HashSet<>();
    Optional<Duration> halfLife = Optional.empty();
    final Map<String, List<String>> routes = new TreeMap<>();
    final Map<String, Set<String>> routesByStart = new HashMap<>();
    final Map<String, Consolidation> consolidations = new LinkedHashMap<>();
  }

  private final Map<Namespace, State> spaces = new HashMap<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int snapshotVersion() {
    return 1;
  }

  // ---------------------------------------------------------------- reads

  /** The recorded lifecycle of {@code id}; {@link Life#NEW} if none was recorded. */
  public Life life(Namespace ns, String id) {
    State s = spaces.get(ns);
    return s == null ? Life.NEW : s.lives.getOrDefault(id, Life.NEW);
  }

  /** The transitions {@code id} went through, oldest first. */
  public List<LifecycleTransition> history(Namespace ns, String id) {
    State s = spaces.get(ns);
    return s == null ? List.of() : List.copyOf(s.history.getOrDefault(id, List.of()));
  }

  /** The ids of the archived memories of {@code ns}: a read-only view. */
  public Set<String> archived(Namespace ns) {
    State s = spaces.get(ns);
    return s == null ? Set.of() : Collections.unmodifiableSet(s.archived);
  }

  /** The namespace's half-life, the default if none was set. */
  public Duration halfLife(Namespace ns) {
    State s = spaces.get(ns);
    return s == null
        ? dev.loci.recall.LifecyclePolicy.DEFAULT.halfLife()
        : s.halfLife.orElse(dev.loci.recall.LifecyclePolicy.DEFAULT.halfLife());
  }

  /** The steps of stored route {@code id}, if stored. */
  public Optional<List<String>> route(Namespace ns, String id) {
    State s = spaces.get(ns);
    return s == null ? Optional.empty() : Optional.ofNullable(s.routes.get(id));
  }

  /** The ids of the routes starting at {@code id}, sorted. */
  public List<String> routesFrom(Namespace ns, String id) {
    State s = spaces.get(ns);
    if (s == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>(s.routesByStart.getOrDefault(id, Set.of()));
    Collections.sort(out);
    return out;
  }

  /** Every consolidation run of {@code ns}, oldest first. */
  public List<Consolidation> consolidations(Namespace ns) {
    State s = spaces.get(ns);
    return s == null ? List.of() : List.copyOf(s.consolidations.values());
  }

  /** Every namespace that has palace state. */
  public Set<Namespace> namespaces() {
    return Set.copyOf(spaces.keySet());
  }

  // ---------------------------------------------------------------- events

  /** A use of {@code id}: the counts after it. */
  public static Event used(
      String id, boolean useful, long reinforcements, double stability, Instant at) {
    ObjectNode d = RecallJson.MAPPER.createObjectNode();
    d.put("id", id)
        .put("useful", useful)
        .put("reinforcement_count", reinforcements)
        .put("stability", stability)
        .put("at", at.toString());
    return new Event(USED, d);
  }

  /** A change of state of {@code id}. */
  public static Event transition(
      String id, LifecycleState from, LifecycleState to, String reason, Instant at) {
    ObjectNode d = RecallJson.MAPPER.createObjectNode();
    d.put("id", id)
        .put("from", from.wireName())
        .put("to", to.wireName())
        .put("reason", reason)
        .put("at", at.toString());
    return new Event(TRANSITION, d);
  }

  /** A namespace's half-life. */
  public static Event policy(Duration halfLife) {
    ObjectNode d = RecallJson.MAPPER.createObjectNode();
    d.put("half_life_seconds", halfLife.toSeconds());
    return new Event(POLICY, d);
  }

  /** A stored route. */
  public static Event routeStored(String id, List<String> steps) {
    ObjectNode d = RecallJson.MAPPER.createObjectNode();
    d.put("id", id);
    ArrayNode a = d.putArray("steps");
    steps.forEach(a::add);
    return new Event(ROUTE, d);
  }

  /** A consolidation run and the summaries it made. */
  public static Event consolidated(String id, Map<String, List<String>> summaries) {
    ObjectNode d = RecallJson.MAPPER.createObjectNode();
    d.put("id", id);
    ArrayNode a = d.putArray("summaries");
    summaries.forEach(
        (node, sources) -> {
          ObjectNode o = a.addObject();
          o.put("node", node);
          ArrayNode src = o.putArray("sources");
          sources.forEach(src::add);
        });
    return new Event(CONSOLIDATED, d);
  }

  /** The undoing of a consolidation run. */
  public static Event undone(String id) {
    ObjectNode d = RecallJson.MAPPER.createObjectNode();
    d.put("id", id);
    return new Event(UNDONE, d);
  }

  // ---------------------------------------------------------------- projection

  @Override
  public Runnable prepare(JournalEntry entry, List<Event> events) {
    Namespace ns = entry.namespace();
    List<Runnable> steps = new ArrayList<>(events.size());
    for (Event e : events) {
      JsonNode d = e.data();
      switch (e.type()) {
        case USED -> {
          String id = text(d, "id");
          long count = d.path("reinforcement_count").asLong(-1);
          double stability = d.path("stability").asDouble(-1);
          Instant at = Instant.parse(text(d, "at"));
          if (count < 0 || !(stability >= 0 && stability <= 1)) {
            throw new IllegalStateException("palace.used for " + id + " lacks valid counts");
          }
          steps.add(
              () -> {
                State s = state(ns);
                Life old = s.lives.getOrDefault(id, Life.NEW);
                s.lives.put(
                    id, new Life(old.state(), count, stability, Optional.of(at), Optional.of(at)));
              });
        }
        case TRANSITION -> {
          String id = text(d, "id");
          LifecycleState from = LifecycleState.parse(text(d, "from"));
          LifecycleState to = LifecycleState.parse(text(d, "to"));
          String reason = text(d, "reason");
          Instant at = Instant.parse(text(d, "at"));
          steps.add(() -> applyTransition(ns, id, from, to, reason, at));
        }
        case POLICY -> {
          long seconds = d.path("half_life_seconds").asLong(0);
          if (seconds < 1) {
            throw new IllegalStateException("palace.policy_set lacks a positive half-life");
          }
          steps.add(() -> state(ns).halfLife = Optional.of(Duration.ofSeconds(seconds)));
        }
        case ROUTE -> {
          String id = text(d, "id");
          List<String> route = strings(d.path("steps"));
          steps.add(() -> putRoute(ns, id, route));
        }
        case CONSOLIDATED -> {
          String id = text(d, "id");
          Map<String, List<String>> summaries = new LinkedHashMap<>();
          d.path("summaries")
              .forEach(s -> summaries.put(text(s, "node"), strings(s.path("sources"))));
          steps.add(
              () ->
                  state(ns)
                      .consolidations
                      .put(id, new Consolidation(id, Map.copyOf(summaries), false)));
        }
        case UNDONE -> {
          String id = text(d, "id");
          steps.add(
              () ->
                  state(ns)
                      .consolidations
                      .computeIfPresent(
                          id, (k, c) -> new Consolidation(c.id(), c.summaries(), true)));
        }
        default -> throw new IllegalStateException("unknown event type '" + e.type() + "'");
      }
    }
    return () -> steps.forEach(Runnable::run);
  }

  private State state(Namespace ns) {
    return spaces.computeIfAbsent(ns, k -> new State());
  }

  private void applyTransition(
      Namespace ns, String id, LifecycleState from, LifecycleState to, String reason, Instant at) {
    State s = state(ns);
    Life old = s.lives.getOrDefault(id, Life.NEW);
    s.lives.put(
        id, new Life(to, old.reinforcements(), old.stability(), old.since(), old.lastAccess()));
    s.history
        .computeIfAbsent(id, k -> new ArrayList<>())
        .add(new LifecycleTransition(id, from, to, reason, at));
    if (to == LifecycleState.ARCHIVED) {
      s.archived.add(id);
    } else {
      s.archived.remove(id);
    }
  }

  private void putRoute(Namespace ns, String id, List<String> steps) {
    State s = state(ns);
    s.routes.put(id, List.copyOf(steps));
    s.routesByStart.computeIfAbsent(steps.get(0), k -> new HashSet<>()).add(id);
  }

  private static String text(JsonNode d, String field) {
    JsonNode n = d.get(field);
    if (n == null || !n.isTextual()) {
      throw new IllegalStateException("palace event lacks '" + field + "'");
    }
    return n.asText();
  }

  private static List<String> strings(JsonNode a) {
    List<String> out = new ArrayList<>();
    a.forEach(n -> out.add(n.asText()));
    if (out.isEmpty()) {
      throw new IllegalStateException("palace event lacks a non-empty list");
    }
    return List.copyOf(out);
  }

  // ---------------------------------------------------------------- snapshots

  @Override
  public Iterable<String> capture() {
    List<String> out = new ArrayList<>();
    spaces.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              String ns = e.getKey().toString();
              State s = e.getValue();
              s.halfLife.ifPresent(
                  h ->
                      out.add(
                          record(ns, "policy").put("half_life_seconds", h.toSeconds()).toString()));
              new TreeMap<>(s.lives)
                  .forEach(
                      (id, l) -> {
                        ObjectNode r = record(ns, "life");
                        r.put("id", id)
                            .put("state", l.state().wireName())
                            .put("reinforcement_count", l.reinforcements())
                            .put("stability", l.stability());
                        l.since().ifPresent(t -> r.put("since", t.toString()));
                        l.lastAccess().ifPresent(t -> r.put("last_access", t.toString()));
                        ArrayNode h = r.putArray("history");
                        s.history
                            .getOrDefault(id, List.of())
                            .forEach(
                                t ->
                                    h.addObject()
                                        .put("from", t.from().wireName())
                                        .put("to", t.to().wireName())
                                        .put("reason", t.reason())
                                        .put("at", t.at().toString()));
                        out.add(r.toString());
                      });
              s.routes.forEach(
                  (id, steps) -> {
                    ObjectNode r = record(ns, "route");
                    r.put("id", id);
                    ArrayNode a = r.putArray("steps");
                    steps.forEach(a::add);
                    out.add(r.toString());
                  });
              s.consolidations
                  .values()
                  .forEach(
                      c -> {
                        ObjectNode r = record(ns, "consolidation");
                        r.put("id", c.id()).put("undone", c.undone());
                        ObjectNode sm = r.putObject("summaries");
                        new TreeMap<>(c.summaries())
                            .forEach(
                                (node, src) -> {
                                  ArrayNode a = sm.putArray(node);
                                  src.forEach(a::add);
                                });
                        out.add(r.toString());
                      });
            });
    return List.copyOf(out);
  }

  private static ObjectNode record(String ns, String kind) {
    ObjectNode r = RecallJson.MAPPER.createObjectNode();
    r.put("ns", ns).put("kind", kind);
    return r;
  }

  @Override
  public void restore(String record, int version) {
    JsonNode r = SnapshotRecords.read(RecallJson.MAPPER, NAME, record, version, 1);
    try {
      Namespace ns = Namespace.of(text(r, "ns"));
      State s = state(ns);
      switch (text(r, "kind")) {
        case "policy" ->
            s.halfLife = Optional.of(Duration.ofSeconds(r.path("half_life_seconds").asLong()));
        case "life" -> {
          String id = text(r, "id");
          s.lives.put(
              id,
              new Life(
                  LifecycleState.parse(text(r, "state")),
                  r.path("reinforcement_count").asLong(),
                  r.path("stability").asDouble(),
                  instant(r, "since"),
                  instant(r, "last_access")));
          List<LifecycleTransition> h = new ArrayList<>();
          r.path("history")
              .forEach(
                  t ->
                      h.add(
                          new LifecycleTransition(
                              id,
                              LifecycleState.parse(text(t, "from")),
                              LifecycleState.parse(text(t, "to")),
                              text(t, "reason"),
                              Instant.parse(text(t, "at")))));
          if (!h.isEmpty()) {
            s.history.put(id, h);
          }
          if (s.lives.get(id).state() == LifecycleState.ARCHIVED) {
            s.archived.add(id);
          }
        }
        case "route" -> putRoute(ns, text(r, "id"), strings(r.path("steps")));
        case "consolidation" -> {
          Map<String, List<String>> summaries = new LinkedHashMap<>();
          r.path("summaries")
              .fields()
              .forEachRemaining(f -> summaries.put(f.getKey(), strings(f.getValue())));
          String id = text(r, "id");
          s.consolidations.put(
              id, new Consolidation(id, Map.copyOf(summaries), r.path("undone").asBoolean()));
        }
        default -> throw new IllegalArgumentException("unknown kind " + r.path("kind"));
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("unreadable palace record: " + e.getMessage(), e);
    }
  }

  private static Optional<Instant> instant(JsonNode r, String field) {
    return r.hasNonNull(field)
        ? Optional.of(Instant.parse(r.get(field).asText()))
        : Optional.empty();
  }

  @Override
  public void clear() {
    spaces.clear();
  }
}
