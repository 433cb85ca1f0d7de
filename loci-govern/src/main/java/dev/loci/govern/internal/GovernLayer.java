package dev.loci.govern.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.govern.Conflict;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityWire;
import dev.loci.govern.GovernWire;
import dev.loci.govern.Interaction;
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
 * govern.conflict}, {@code govern.state_set}, {@code govern.entity}, {@code govern.interaction},
 * {@code govern.setting}; {@code govern.state_deleted} carries the key), so applying is a put,
 * checked against the current version: replay rebuilds exactly the same state.
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
  static final String ENTITY = NAME + ".entity";
  static final String INTERACTION = NAME + ".interaction";
  static final String SETTING = NAME + ".setting";

  /** The words of a text as context packs match them: letters and digits, 3 or more. */
  public static Set<String> words(String text) {
    return Shelf.words(text);
  }

  private final Map<Namespace, Shelf> shelves = new HashMap<>();
  private Optional<java.nio.file.Path> dataDir = Optional.empty();

  @Override
  public void attach(java.nio.file.Path dataDir) {
    this.dataDir = Optional.of(dataDir); // where the ingestion waves' reports are
  }

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

  /**
   * The active memories of {@code ns} of {@code type}, most confident first, then most recently
   * updated, then by id: a live view, to read under the engine's shared access and not keep.
   */
  public Iterable<Memory> activeByTrust(Namespace ns, MemoryType type) {
    java.util.NavigableSet<Memory> ordered = shelf(ns).trustedOrder.get(type);
    return ordered == null ? List.of() : java.util.Collections.unmodifiableNavigableSet(ordered);
  }

  /** The active memories of {@code ns} of {@code type}, in the order they became active. */
  public List<Memory> active(Namespace ns, MemoryType type) {
    Shelf s = shelf(ns);
    return s.activeByType.getOrDefault(type, Set.of()).stream().map(s::newest).toList();
  }

  /**
   * The {@code limit} active memories of {@code ns} that best match {@code words}, best first: each
   * scores the inverse document frequency of the words it contains (a word most active memories
   * hold weighs little), times its confidence; ties by id. Exactly the best of a full scan, found
   * by a top-k walk over confidence-ordered postings that stops early ({@link WordPostings}).
   */
  public List<Memory> activeMatching(Namespace ns, Set<String> words, int limit) {
    Shelf s = shelf(ns);
    int total = Math.max(1, s.activeByType.values().stream().mapToInt(Set::size).sum());
    return s.activeByWord.top(words, total, limit).stream().map(s::newest).toList();
  }

  /** The newest version of entity {@code id}. */
  public Entity requireEntity(Namespace ns, String id) {
    List<Entity> versions = shelf(ns).entities.entities.get(id);
    if (versions == null) {
      throw new NotFoundException("id", "no entity '" + id + "' in " + ns);
    }
    return versions.get(versions.size() - 1);
  }

  /** Whether {@code ns} has entity {@code id}, in any status. */
  public boolean hasEntity(Namespace ns, String id) {
    return shelf(ns).entities.entities.containsKey(id);
  }

  /** Every version of entity {@code id}, newest first. */
  public List<Entity> entityHistory(Namespace ns, String id) {
    requireEntity(ns, id);
    List<Entity> out = new ArrayList<>(shelf(ns).entities.entities.get(id));
    java.util.Collections.reverse(out);
    return out;
  }

  /** The newest version of every entity of {@code ns}, in the order first proposed. */
  public List<Entity> entities(Namespace ns) {
    return shelf(ns).entities.entities.values().stream().map(v -> v.get(v.size() - 1)).toList();
  }

  /**
   * The {@code limit} active entities of {@code ns} that best match {@code words}, best first:
   * scored as {@link #activeMatching} scores memories (inverse document frequency of the words
   * held, times confidence; ties by id), found by the same top-k walk.
   */
  public List<Entity> activeEntitiesMatching(Namespace ns, Set<String> words, int limit) {
    EntityShelf s = shelf(ns).entities;
    int total = Math.max(1, s.activeByType.values().stream().mapToInt(Set::size).sum());
    return s.activeByWord.top(words, total, limit).stream().map(s::newest).toList();
  }

  /** Interaction {@code id}. */
  public Interaction requireInteraction(Namespace ns, String id) {
    Interaction i = shelf(ns).entities.interactions.get(id);
    if (i == null) {
      throw new NotFoundException("id", "no interaction '" + id + "' in " + ns);
    }
    return i;
  }

  /** The settings of {@code ns}, by name. */
  public Map<String, String> settings(Namespace ns) {
    return Map.copyOf(shelf(ns).settings);
  }

  /** Whether {@code ns} has an active entity. */
  public boolean entitiesInUse(Namespace ns) {
    return shelf(ns).entities.inUse();
  }

  /** The conflicts of {@code ns}, in the order opened. */
  public List<Conflict> conflicts(Namespace ns) {
    return List.copyOf(shelf(ns).conflicts.values());
  }

  /**
   * The members of {@code ns}'s open conflicts that a more trusted member overrules: a context pack
   * leaves them out until a reviewer decides.
   */
  public Set<String> overruled(Namespace ns) {
    Shelf s = shelf(ns);
    Set<String> known = s.overruled;
    if (known != null) {
      return known;
    }
    Set<String> out = new java.util.HashSet<>();
    for (String id : s.openBySlot.values()) {
      Conflict c = s.conflicts.get(id);
      c.prevailing()
          .ifPresent(
              p ->
                  c.members().stream()
                      .filter(m -> Conflict.trust(m) < Conflict.trust(p))
                      .forEach(out::add));
    }
    s.overruled = Set.copyOf(out);
    return s.overruled;
  }

  /** Every namespace with governed records. */
  public List<Namespace> namespaces() {
    return List.copyOf(shelves.keySet());
  }

  /** Open conflicts in every namespace. */
  public long openConflicts() {
    return shelves.values().stream()
        .flatMap(s -> s.conflicts.values().stream())
        .filter(c -> c.status() == Conflict.Status.OPEN)
        .count();
  }

  /** Trusted project state of {@code ns}, in key order (the same order in every process). */
  public Map<String, StateEntry> state(Namespace ns) {
    return java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(shelf(ns).state));
  }

  /**
   * Trusted project state of {@code ns} in key order: a live view, to read under the engine's
   * shared access and not keep.
   */
  public Map<String, StateEntry> stateByKey(Namespace ns) {
    return java.util.Collections.unmodifiableMap(shelf(ns).state);
  }

  /**
   * The tokens of the content of {@code ns}'s active memories, counted once per memory (a context
   * pack takes the same trusted memories again and again): to call under the engine's shared
   * access.
   */
  public java.util.function.ToIntFunction<Memory> tokens(Namespace ns) {
    return shelf(ns)::tokens;
  }

  /** The records of {@code ns}; an empty shelf (not kept) if it has none. */
  Shelf shelf(Namespace ns) {
    Shelf s = shelves.get(ns);
    return s == null ? new Shelf() : s;
  }

  static Event memoryEvent(Memory m) {
    return Event.ofJson(MEMORY, Json.write(GovernWire.memory(m)), m);
  }

  static Event entityEvent(Entity e) {
    return Event.ofJson(ENTITY, Json.write(EntityWire.entity(e)), e);
  }

  /** The event that sets governance setting {@code name} of a namespace. */
  public static Event settingEvent(String name, String value) {
    return new Event(SETTING, Json.object().put("name", name).put("value", value));
  }

  static Event interactionEvent(Interaction i) {
    return Event.ofJson(INTERACTION, Json.write(EntityWire.interaction(i)), i);
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
    Map<String, Entity> entities = new LinkedHashMap<>();
    List<Interaction> interactions = new ArrayList<>();
    Map<String, String> settings = new LinkedHashMap<>();
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
        case ENTITY -> {
          Entity en =
              e.decoded().map(Entity.class::cast).orElseGet(() -> EntityWire.entity(e.data()));
          Entity before = entities.get(en.id());
          int current =
              before != null
                  ? before.version()
                  : Optional.ofNullable(shelf(ns).entities.entities.get(en.id()))
                      .map(v -> v.get(v.size() - 1).version())
                      .orElse(0);
          if (en.version() != current + 1) {
            throw new IllegalStateException(
                "entity '" + en.id() + "' version " + en.version() + " does not follow " + current);
          }
          entities.put(en.id(), en);
        }
        case INTERACTION ->
            interactions.add(
                e.decoded()
                    .map(Interaction.class::cast)
                    .orElseGet(() -> EntityWire.interaction(e.data())));
        case SETTING ->
            settings.put(e.data().path("name").asText(), e.data().path("value").asText());
        default -> throw new IllegalStateException("unknown govern event '" + e.type() + "'");
      }
    }
    return () -> {
      Shelf s = shelves.computeIfAbsent(ns, k -> new Shelf());
      interactions.forEach(i -> s.entities.interactions.put(i.id(), i));
      memories.values().forEach(s::put);
      entities.values().forEach(s.entities::put);
      conflicts.forEach(s::put);
      s.settings.putAll(settings);
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
          s.entities
              .interactions
              .values()
              .forEach(i -> out.add(tagged("interaction", EntityWire.interaction(i))));
          s.entities
              .entities
              .values()
              .forEach(v -> v.forEach(e -> out.add(tagged("entity", EntityWire.entity(e)))));
          s.settings.forEach(
              (k, v) ->
                  out.add(
                      tagged(
                          "setting",
                          Json.object()
                              .put("namespace", ns.value())
                              .put("name", k)
                              .put("value", v))));
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
      case "entity" -> {
        Entity e = EntityWire.entity(n);
        shelves.computeIfAbsent(e.namespace(), k -> new Shelf()).entities.put(e);
      }
      case "interaction" -> {
        Interaction i = EntityWire.interaction(n);
        shelves
            .computeIfAbsent(i.namespace(), k -> new Shelf())
            .entities
            .interactions
            .put(i.id(), i);
      }
      case "setting" ->
          shelves
              .computeIfAbsent(Namespace.of(n.path("namespace").asText()), k -> new Shelf())
              .settings
              .put(n.path("name").asText(), n.path("value").asText());
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
          for (String id : List.copyOf(s.entities.entities.keySet())) {
            if (recordKeys.contains(SubjectMention.key(ns, id))) {
              s.entities.replaceAll(id, GovernErasure::erased);
            }
          }
          s.entities.interactions.replaceAll(
              (id, i) ->
                  recordKeys.contains(SubjectMention.key(ns, id)) ? GovernErasure.erased(i) : i);
          for (Conflict c : List.copyOf(s.conflicts.values())) {
            if (GovernErasure.touches(c, recordKeys)) {
              s.openBySlot.remove(c.slotKey(), c.id());
              s.put(GovernErasure.erased(c));
            }
          }
        });
    dataDir.ifPresent(d -> WaveReportErasure.scrub(d, recordKeys));
  }

  @Override
  public void clear() {
    shelves.clear();
  }
}
