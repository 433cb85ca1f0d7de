package dev.loci.govern.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.govern.Conflict;
import dev.loci.govern.GovernWire;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryType;
import dev.loci.govern.StateEntry;
import dev.loci.internal.Json;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SnapshotRecords;
import dev.loci.spi.SubjectMention;
import dev.loci.spi.SubjectRecords;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The governed-memory projection: every version of every memory, the conflicts, and trusted project
 * state, per namespace ({@link Shelf}), its reads, its snapshots and what erasure does to it. The
 * decisions that change it live in {@link MemoryDecisions} and {@link ConflictDecisions}.
 *
 * <p>Events carry the record as it is after the change ({@code govern.memory}, {@code
 * govern.conflict}, {@code govern.state_set}; {@code govern.state_deleted} carries the key), so
 * applying is a put, checked against the current version: replay rebuilds exactly the same state.
 *
 * <p>Not thread-safe on its own: the engine runs decisions and reads under its locks.
 */
public final class GovernLayer implements Layer, SubjectRecords {
  /** The layer's name and event prefix. */
  public static final String NAME = "govern";

  static final String MEMORY = NAME + ".memory";
  static final String CONFLICT = NAME + ".conflict";
  static final String STATE_SET = NAME + ".state_set";
  static final String STATE_DELETED = NAME + ".state_deleted";

  /** The words of a text as context packs match them: letters and digits, 3 or more. */
  public static Set<String> words(String text) {
    return Shelf.words(text);
  }

  private final Map<Namespace, Shelf> shelves = new HashMap<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int snapshotVersion() {
    return 1;
  }

  // ---------------------------------------------------------------- reads

  /** The newest version of memory {@code id}. */
  public Memory require(Namespace ns, String id) {
    List<Memory> versions = shelf(ns).memories.get(id);
    if (versions == null) {
      throw new NotFoundException("id", "no memory '" + id + "' in " + ns);
    }
    return versions.get(versions.size() - 1);
  }

  /** Every version of memory {@code id}, newest first. */
  public List<Memory> history(Namespace ns, String id) {
    require(ns, id);
    List<Memory> out = new ArrayList<>(shelf(ns).memories.get(id));
    java.util.Collections.reverse(out);
    return out;
  }

  /** The newest version of every memory of {@code ns}, in the order first proposed. */
  public List<Memory> memories(Namespace ns) {
    return shelf(ns).memories.values().stream().map(v -> v.get(v.size() - 1)).toList();
  }

  /** The active memories of {@code ns} of {@code type}, in the order they became active. */
  public List<Memory> active(Namespace ns, MemoryType type) {
    Shelf s = shelf(ns);
    return s.activeByType.getOrDefault(type, Set.of()).stream().map(s::newest).toList();
  }

  /**
   * The {@code limit} active memories of {@code ns} that best match {@code words}, best first: each
   * scores the inverse document frequency of the words it contains (a word most active memories
   * hold weighs little), times its confidence; ties by id. Counts over ids and looks up only the
   * best, so a common word costs a count, not a sort of every memory holding it.
   */
  public List<Memory> activeMatching(Namespace ns, Set<String> words, int limit) {
    Shelf s = shelf(ns);
    int total = Math.max(1, s.activeByType.values().stream().mapToInt(Set::size).sum());
    Map<String, Double> score = new HashMap<>();
    for (String w : words) {
      Set<String> ids = s.activeByWord.getOrDefault(w, Set.of());
      double idf = Math.log(1.0 + (double) total / Math.max(1, ids.size()));
      for (String id : ids) {
        score.merge(id, idf, Double::sum);
      }
    }
    // a bounded heap of the best by word score, then confidence applied to those only
    java.util.PriorityQueue<Map.Entry<String, Double>> best =
        new java.util.PriorityQueue<>(Map.Entry.comparingByValue());
    for (Map.Entry<String, Double> e : score.entrySet()) {
      best.add(e);
      if (best.size() > limit * 4) {
        best.poll();
      }
    }
    record Scored(Memory memory, double score) {}
    return best.stream()
        .map(
            e -> new Scored(s.newest(e.getKey()), e.getValue() * s.newest(e.getKey()).confidence()))
        .sorted(
            java.util.Comparator.comparingDouble(Scored::score)
                .reversed()
                .thenComparing(x -> x.memory().id()))
        .limit(limit)
        .map(Scored::memory)
        .toList();
  }

  /** The conflicts of {@code ns}, in the order opened. */
  public List<Conflict> conflicts(Namespace ns) {
    return List.copyOf(shelf(ns).conflicts.values());
  }

  /** Open conflicts in every namespace. */
  public long openConflicts() {
    return shelves.values().stream()
        .flatMap(s -> s.conflicts.values().stream())
        .filter(c -> c.status() == Conflict.Status.OPEN)
        .count();
  }

  /** Trusted project state of {@code ns}, by key. */
  public Map<String, StateEntry> state(Namespace ns) {
    return Map.copyOf(shelf(ns).state);
  }

  /** The records of {@code ns}; an empty shelf (not kept) if it has none. */
  Shelf shelf(Namespace ns) {
    Shelf s = shelves.get(ns);
    return s == null ? new Shelf() : s;
  }

  static Event memoryEvent(Memory m) {
    return Event.ofJson(MEMORY, Json.write(GovernWire.memory(m)), m);
  }

  static Event conflictEvent(Conflict c) {
    return Event.ofJson(CONFLICT, Json.write(GovernWire.conflict(c)), c);
  }

  // ---------------------------------------------------------------- apply and snapshots

  @Override
  public Runnable prepare(JournalEntry entry, List<Event> events) {
    Namespace ns = entry.namespace();
    Map<String, Memory> memories = new LinkedHashMap<>();
    List<Conflict> conflicts = new ArrayList<>();
    Map<String, Optional<StateEntry>> state = new LinkedHashMap<>();
    for (Event e : events) {
      switch (e.type()) {
        case MEMORY -> {
          Memory m =
              e.decoded().map(Memory.class::cast).orElseGet(() -> GovernWire.memory(e.data()));
          Memory before = memories.get(m.id());
          int current =
              before != null
                  ? before.version()
                  : Optional.ofNullable(shelf(ns).memories.get(m.id()))
                      .map(v -> v.get(v.size() - 1).version())
                      .orElse(0);
          if (m.version() != current + 1) {
            throw new IllegalStateException(
                "memory '" + m.id() + "' version " + m.version() + " does not follow " + current);
          }
          memories.put(m.id(), m);
        }
        case CONFLICT ->
            conflicts.add(
                e.decoded()
                    .map(Conflict.class::cast)
                    .orElseGet(() -> GovernWire.conflict(e.data())));
        case STATE_SET -> {
          StateEntry s = GovernWire.state(e.data());
          state.put(s.key(), Optional.of(s));
        }
        case STATE_DELETED -> state.put(e.data().path("key").asText(), Optional.empty());
        default -> throw new IllegalStateException("unknown govern event '" + e.type() + "'");
      }
    }
    return () -> {
      Shelf s = shelves.computeIfAbsent(ns, k -> new Shelf());
      memories.values().forEach(s::put);
      conflicts.forEach(s::put);
      state.forEach(
          (k, v) -> {
            if (v.isPresent()) {
              s.state.put(k, v.get());
            } else {
              s.state.remove(k);
            }
          });
    };
  }

  @Override
  public Iterable<String> capture() {
    List<String> out = new ArrayList<>();
    shelves.forEach(
        (ns, s) -> {
          s.memories
              .values()
              .forEach(v -> v.forEach(m -> out.add(tagged("memory", GovernWire.memory(m)))));
          s.conflicts.values().forEach(c -> out.add(tagged("conflict", GovernWire.conflict(c))));
          s.state
              .values()
              .forEach(
                  e -> out.add(tagged("state", GovernWire.state(e).put("namespace", ns.value()))));
        });
    return out;
  }

  private static String tagged(String kind, com.fasterxml.jackson.databind.node.ObjectNode n) {
    n.put("record", kind);
    return Json.write(n);
  }

  @Override
  public void restore(String record, int version) {
    JsonNode n = SnapshotRecords.read(Json.MAPPER, NAME, record, version, 1);
    switch (n.path("record").asText()) {
      case "memory" -> {
        Memory m = GovernWire.memory(n);
        shelves.computeIfAbsent(m.namespace(), k -> new Shelf()).put(m);
      }
      case "conflict" -> {
        Conflict c = GovernWire.conflict(n);
        shelves.computeIfAbsent(c.namespace(), k -> new Shelf()).put(c);
      }
      case "state" -> {
        StateEntry e = GovernWire.state(n);
        shelves
            .computeIfAbsent(Namespace.of(n.path("namespace").asText()), k -> new Shelf())
            .state
            .put(e.key(), e);
      }
      default -> throw new IllegalArgumentException("unknown govern snapshot record: " + record);
    }
  }

  // ---------------------------------------------------------------- subjects

  @Override
  public List<SubjectMention> mentions(JournalEntry entry, Event event) {
    return GovernErasure.mentions(event);
  }

  @Override
  public Event scrub(JournalEntry entry, Event event, Set<String> recordKeys) {
    return GovernErasure.scrub(entry, event, recordKeys);
  }

  @Override
  public void erase(Set<String> recordKeys) {
    shelves.forEach(
        (ns, s) -> {
          for (String id : List.copyOf(s.memories.keySet())) {
            if (recordKeys.contains(SubjectMention.key(ns, id))) {
              List<Memory> versions = s.memories.remove(id);
              s.unindexNewest(versions);
              versions.forEach(m -> s.put(GovernErasure.erased(m)));
            }
          }
          for (Conflict c : List.copyOf(s.conflicts.values())) {
            if (GovernErasure.touches(c, recordKeys)) {
              s.openBySlot.remove(c.slotKey(), c.id());
              s.put(GovernErasure.erased(c));
            }
          }
        });
  }

  @Override
  public void clear() {
    shelves.clear();
  }
}
