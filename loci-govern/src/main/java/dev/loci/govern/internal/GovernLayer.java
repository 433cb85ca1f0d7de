package dev.loci.govern.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.govern.Conflict;
import dev.loci.govern.GovernWire;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.StateEntry;
import dev.loci.govern.Written;
import dev.loci.internal.Json;
import dev.loci.spi.CommandContext;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SnapshotRecords;
import dev.loci.spi.SubjectMention;
import dev.loci.spi.SubjectRecords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The governed-memory projection: every version of every memory, the conflicts, and trusted project
 * state, per namespace; and the decisions that change them.
 *
 * <p>Events carry the record as it is after the change ({@code govern.memory}, {@code
 * govern.conflict}, {@code govern.state_set}; {@code govern.state_deleted} carries the key), so
 * applying is a put, checked against the current version: replay rebuilds exactly the same state. A
 * decision that activates a memory (promotion, an active write, a resolution) checks the slot it
 * claims against the other active memories and trusted state of its namespace in the same decision,
 * and opens or joins a conflict in the same batch: flagged at write time, never blocked.
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

  /**
   * One namespace's records, with the indexes that keep every decision and every context pack off a
   * scan of the whole namespace: the open fact of each (type, content, subjects), the active
   * memories of each slot, of each type and containing each word.
   */
  private static final class Shelf {
    final Map<String, List<Memory>> memories = new LinkedHashMap<>(); // versions, oldest first
    final Map<String, Conflict> conflicts = new LinkedHashMap<>();
    final Map<String, StateEntry> state = new TreeMap<>();
    final Map<String, String> openFacts = new HashMap<>(); // fact key -> candidate or active id
    final Map<String, Set<String>> activeBySlot = new HashMap<>(); // slot key -> ids
    final Map<MemoryType, Set<String>> activeByType = new EnumMap<>(MemoryType.class);
    final Map<String, Set<String>> activeByWord = new HashMap<>(); // word -> ids
    final Map<String, String> openBySlot = new HashMap<>(); // slot key -> open conflict id

    /** Puts a conflict's new version, keeping the open-conflict index in step. */
    void put(Conflict c) {
      conflicts.put(c.id(), c);
      if (c.status() == Conflict.Status.OPEN) {
        openBySlot.put(c.slotKey(), c.id());
      } else {
        openBySlot.remove(c.slotKey(), c.id());
      }
    }

    /** Takes a record's newest version out of the indexes, before its versions are replaced. */
    void unindexNewest(List<Memory> versions) {
      unindex(versions.get(versions.size() - 1));
    }

    Memory newest(String id) {
      List<Memory> v = memories.get(id);
      return v.get(v.size() - 1);
    }

    /** Puts a new version, keeping the indexes in step. */
    void put(Memory m) {
      List<Memory> versions = memories.computeIfAbsent(m.id(), k -> new ArrayList<>());
      if (!versions.isEmpty()) {
        unindex(versions.get(versions.size() - 1));
      }
      versions.add(m);
      index(m);
    }

    private void index(Memory m) {
      if (open(m)) {
        openFacts.put(factKey(m.type(), m.content(), m.subjectIds()), m.id());
      }
      if (m.status() == MemoryStatus.ACTIVE) {
        m.slotKey()
            .ifPresent(
                k -> activeBySlot.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(m.id()));
        activeByType.computeIfAbsent(m.type(), x -> new LinkedHashSet<>()).add(m.id());
        for (String w : words(m.content())) {
          activeByWord.computeIfAbsent(w, x -> new HashSet<>()).add(m.id());
        }
      }
    }

    private void unindex(Memory m) {
      if (open(m)) {
        openFacts.remove(factKey(m.type(), m.content(), m.subjectIds()), m.id());
      }
      if (m.status() == MemoryStatus.ACTIVE) {
        m.slotKey().ifPresent(k -> removeFrom(activeBySlot, k, m.id()));
        removeFrom(activeByType, m.type(), m.id());
        for (String w : words(m.content())) {
          removeFrom(activeByWord, w, m.id());
        }
      }
    }

    private static <K> void removeFrom(Map<K, Set<String>> index, K key, String id) {
      Set<String> ids = index.get(key);
      if (ids != null && ids.remove(id) && ids.isEmpty()) {
        index.remove(key);
      }
    }

    private static boolean open(Memory m) {
      return m.status() == MemoryStatus.CANDIDATE || m.status() == MemoryStatus.ACTIVE;
    }
  }

  /** What makes two memories the same fact: type, normalized content, sorted subjects. */
  static String factKey(MemoryType type, String content, List<String> subjects) {
    return type.label()
        + "|"
        + normal(content)
        + "|"
        + String.join(",", subjects.stream().sorted().toList());
  }

  /** The words of a text as context packs match them: letters and digits, 3 or more. */
  public static Set<String> words(String text) {
    Set<String> out = new HashSet<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (w.length() > 2) {
        out.add(w);
      }
    }
    return out;
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

  private Shelf shelf(Namespace ns) {
    Shelf s = shelves.get(ns);
    return s == null ? new Shelf() : s;
  }

  // ---------------------------------------------------------------- decisions

  /**
   * A proposed memory: the same fact (type, content, subjects) already a candidate or active is
   * reinforced instead of stored twice; otherwise a new candidate.
   */
  public Decision<Written> decidePropose(CommandContext ctx, Namespace ns, MemoryDraft draft) {
    Optional<Memory> same = sameFact(ns, draft);
    if (same.isPresent()) {
      Memory r = same.get().reinforced(ctx.now());
      return new Decision<>(List.of(memoryEvent(r)), Set.of(r.id()), new Written(r, List.of()));
    }
    Memory m = fresh(ctx, ns, draft, MemoryStatus.CANDIDATE);
    return new Decision<>(List.of(memoryEvent(m)), Set.of(m.id()), new Written(m, List.of()));
  }

  /** A memory a reviewer writes active at once, with conflict detection. */
  public Decision<Written> decideAddActive(
      CommandContext ctx, Namespace ns, MemoryDraft draft, String reviewer) {
    Optional<Memory> same = sameFact(ns, draft);
    Memory m;
    if (same.isEmpty()) {
      m = fresh(ctx, ns, draft, MemoryStatus.ACTIVE);
    } else if (same.get().status() == MemoryStatus.CANDIDATE) {
      m =
          same.get()
              .withStatus(MemoryStatus.ACTIVE, Optional.of("promoted by " + reviewer), ctx.now());
    } else {
      m = same.get().reinforced(ctx.now()); // the same trusted fact seen again
    }
    return activated(ctx, ns, m, List.of());
  }

  /** Reinforces a candidate or active memory. */
  public Decision<Memory> decideReinforce(CommandContext ctx, Namespace ns, String id) {
    Memory m = require(ns, id);
    requireStatus(m, MemoryStatus.CANDIDATE, MemoryStatus.ACTIVE);
    Memory r = m.reinforced(ctx.now());
    return new Decision<>(List.of(memoryEvent(r)), Set.of(id), r);
  }

  /** Promotes a candidate to active, with conflict detection. */
  public Decision<Written> decidePromote(
      CommandContext ctx, Namespace ns, String id, String reviewer) {
    Memory m = require(ns, id);
    requireStatus(m, MemoryStatus.CANDIDATE);
    return activated(
        ctx,
        ns,
        m.withStatus(MemoryStatus.ACTIVE, Optional.of("promoted by " + reviewer), ctx.now()),
        List.of());
  }

  /** Rejects a candidate, or invalidates a candidate or active memory, with a reason. */
  public Decision<Memory> decideInvalidate(
      CommandContext ctx,
      Namespace ns,
      String id,
      String reason,
      String reviewer,
      boolean candidatesOnly) {
    if (reason == null || reason.isBlank()) {
      throw new InvalidRequestException("reason", "expected why, found none");
    }
    Memory m = require(ns, id);
    if (candidatesOnly) {
      requireStatus(m, MemoryStatus.CANDIDATE);
    } else {
      requireStatus(m, MemoryStatus.CANDIDATE, MemoryStatus.ACTIVE);
    }
    Memory r =
        m.withStatus(MemoryStatus.INVALID, Optional.of(reason + " (" + reviewer + ")"), ctx.now());
    return new Decision<>(List.of(memoryEvent(r)), Set.of(id), r);
  }

  /** Supersedes an active memory by another (promoting that one if it is a candidate). */
  public Decision<Written> decideSupersede(
      CommandContext ctx, Namespace ns, String id, String by, String reviewer) {
    if (id.equals(by)) {
      throw new InvalidRequestException("by", "a memory cannot supersede itself");
    }
    Memory old = require(ns, id);
    requireStatus(old, MemoryStatus.ACTIVE);
    Memory successor;
    try {
      successor = require(ns, by);
    } catch (NotFoundException e) {
      throw new NotFoundException("by", "no memory '" + by + "' in " + ns);
    }
    if (successor.status() != MemoryStatus.ACTIVE && successor.status() != MemoryStatus.CANDIDATE) {
      throw new InvalidRequestException(
          "by", "expected an active or candidate successor, found " + successor.status().label());
    }
    Memory superseded = old.supersededBy(by, reviewer, ctx.now());
    if (successor.status() == MemoryStatus.CANDIDATE) {
      successor =
          successor.withStatus(
              MemoryStatus.ACTIVE, Optional.of("promoted by " + reviewer), ctx.now());
    }
    return activated(ctx, ns, successor, List.of(superseded));
  }

  /** Closes an open conflict by keeping {@code winner} and superseding the other memories. */
  public Decision<Conflict> decideResolve(
      CommandContext ctx, Namespace ns, String conflictId, String winner, String reviewer) {
    Conflict c = requireOpen(ns, conflictId);
    if (!c.members().contains(winner)) {
      throw new InvalidRequestException(
          "winner",
          "expected one of the conflict's members " + c.members() + ", found '" + winner + "'");
    }
    List<Event> events = new ArrayList<>();
    Set<String> keys = new java.util.HashSet<>(Set.of(conflictId));
    Optional<Memory> winning =
        winner.startsWith("state:") ? Optional.empty() : Optional.of(require(ns, winner));
    for (String member : c.members()) {
      if (member.equals(winner)) {
        continue;
      }
      if (member.startsWith("state:")) {
        // the reviewer chose a memory over trusted state: the state takes the winner's value
        String key = member.substring("state:".length());
        StateEntry e = new StateEntry(key, winning.orElseThrow().content(), reviewer, ctx.now());
        events.add(new Event(STATE_SET, GovernWire.state(e)));
        continue;
      }
      Memory m = require(ns, member);
      if (m.status() == MemoryStatus.ACTIVE) {
        events.add(memoryEvent(m.supersededBy(winner, reviewer, ctx.now())));
        keys.add(member);
      }
    }
    Conflict closed = c.closed(Conflict.Status.RESOLVED, Optional.of(winner), reviewer, ctx.now());
    events.add(conflictEvent(closed));
    return new Decision<>(events, keys, closed);
  }

  /** Closes an open conflict as no real conflict. */
  public Decision<Conflict> decideDismiss(
      CommandContext ctx, Namespace ns, String conflictId, String reviewer) {
    Conflict closed =
        requireOpen(ns, conflictId)
            .closed(Conflict.Status.DISMISSED, Optional.empty(), reviewer, ctx.now());
    return new Decision<>(List.of(conflictEvent(closed)), Set.of(conflictId), closed);
  }

  /**
   * Opens a conflict for every slot of {@code ns} whose active memories (and trusted state)
   * disagree and that has no open conflict yet: the sweep that catches what write-time detection
   * did not see (memories activated before a slot was set, imports).
   */
  public Decision<List<Conflict>> decideSweep(CommandContext ctx, Namespace ns) {
    Shelf shelf = shelf(ns);
    Map<String, List<Memory>> bySlot = new LinkedHashMap<>();
    shelf.activeBySlot.forEach((k, ids) -> bySlot.put(k, ids.stream().map(shelf::newest).toList()));
    List<Event> events = new ArrayList<>();
    List<Conflict> opened = new ArrayList<>();
    for (List<Memory> group : bySlot.values()) {
      Memory first = group.get(0);
      List<String> members = disagreeing(ns, first, group);
      if (!members.isEmpty() && openConflict(ns, first.slotKey().get()).isEmpty()) {
        List<String> all = new ArrayList<>(members);
        all.add(0, first.id());
        Conflict c =
            withAll(Conflict.opened(ctx.newId(), ns, first.slotKey().get(), ctx.now()), all);
        events.add(conflictEvent(c));
        opened.add(c);
      }
    }
    return new Decision<>(events, Set.of("conflicts"), opened);
  }

  /** Sets trusted project state; an active memory whose slot is the key and disagrees conflicts. */
  public Decision<StateEntry> decideStateSet(
      CommandContext ctx, Namespace ns, String key, String value, String reviewer) {
    StateEntry e = new StateEntry(key, value, reviewer, ctx.now());
    List<Event> events = new ArrayList<>(List.of(new Event(STATE_SET, GovernWire.state(e))));
    List<String> against = new ArrayList<>();
    Shelf shelf = shelf(ns);
    shelf.activeBySlot.forEach(
        (slotKey, ids) -> {
          if (slotKey.endsWith("|" + key)) {
            for (String id : ids) {
              Memory m = shelf.newest(id);
              if (!normal(m.content()).equals(normal(value))) {
                against.add(m.id());
              }
            }
          }
        });
    if (!against.isEmpty()) {
      String slotKey = "state|" + key;
      Conflict c = withAll(openOrNew(ctx, ns, slotKey).with("state:" + key), against);
      events.add(conflictEvent(c));
    }
    return new Decision<>(events, Set.of("state:" + key), e);
  }

  /** Deletes a key of trusted project state. */
  public Decision<StateEntry> decideStateDelete(CommandContext ctx, Namespace ns, String key) {
    StateEntry e = shelf(ns).state.get(key);
    if (e == null) {
      throw new NotFoundException("key", "no project state '" + key + "' in " + ns);
    }
    return new Decision<>(
        List.of(new Event(STATE_DELETED, Json.object().put("key", key))),
        Set.of("state:" + key),
        e);
  }

  // ---------------------------------------------------------------- conflict detection

  /**
   * The batch that writes {@code m} active (and {@code alsoWritten} beside it), with the conflict
   * its slot opens or joins.
   */
  private Decision<Written> activated(
      CommandContext ctx, Namespace ns, Memory m, List<Memory> alsoWritten) {
    List<Event> events = new ArrayList<>();
    Set<String> keys = new java.util.HashSet<>(Set.of(m.id()));
    for (Memory other : alsoWritten) {
      events.add(memoryEvent(other));
      keys.add(other.id());
    }
    events.add(memoryEvent(m));
    List<Conflict> conflicts = new ArrayList<>();
    if (m.slotKey().isPresent()) {
      Shelf shelf = shelf(ns);
      List<Memory> sameSlot = new ArrayList<>();
      for (String id : shelf.activeBySlot.getOrDefault(m.slotKey().get(), Set.of())) {
        boolean replaced = alsoWritten.stream().anyMatch(a -> a.id().equals(id));
        if (!replaced && !id.equals(m.id())) {
          sameSlot.add(shelf.newest(id));
        }
      }
      List<String> members = disagreeing(ns, m, sameSlot);
      if (!members.isEmpty()) {
        String slotKey = m.slotKey().get();
        Conflict c = withAll(openOrNew(ctx, ns, slotKey), members).with(m.id());
        events.add(conflictEvent(c));
        keys.add(c.id());
        conflicts.add(c);
      }
    }
    return new Decision<>(events, keys, new Written(m, conflicts));
  }

  /** The members of {@code group} and trusted state that disagree with {@code m}. */
  private List<String> disagreeing(Namespace ns, Memory m, List<Memory> group) {
    List<String> out = new ArrayList<>();
    for (Memory other : group) {
      if (!other.id().equals(m.id()) && !normal(other.content()).equals(normal(m.content()))) {
        out.add(other.id());
      }
    }
    if (m.slot().isPresent()) {
      StateEntry e = shelf(ns).state.get(m.slot().get());
      if (e != null && !normal(e.value()).equals(normal(m.content()))) {
        out.add("state:" + e.key());
      }
    }
    return out;
  }

  /** The open conflict over {@code slotKey}, or a new one with no members yet. */
  private Conflict openOrNew(CommandContext ctx, Namespace ns, String slotKey) {
    return openConflict(ns, slotKey)
        .orElseGet(() -> Conflict.opened(ctx.newId(), ns, slotKey, ctx.now()));
  }

  private static Conflict withAll(Conflict c, List<String> members) {
    for (String m : members) {
      c = c.with(m);
    }
    return c;
  }

  private Optional<Conflict> openConflict(Namespace ns, String slotKey) {
    Shelf s = shelf(ns);
    return Optional.ofNullable(s.openBySlot.get(slotKey)).map(s.conflicts::get);
  }

  private Conflict requireOpen(Namespace ns, String conflictId) {
    Conflict c = shelf(ns).conflicts.get(conflictId);
    if (c == null) {
      throw new NotFoundException("id", "no conflict '" + conflictId + "' in " + ns);
    }
    if (c.status() != Conflict.Status.OPEN) {
      throw new InvalidRequestException(
          "status", "expected an open conflict, found " + c.status().label());
    }
    return c;
  }

  private Optional<Memory> sameFact(Namespace ns, MemoryDraft draft) {
    Shelf s = shelf(ns);
    return Optional.ofNullable(
            s.openFacts.get(factKey(draft.type(), draft.content(), draft.subjectIds())))
        .map(s::newest);
  }

  private static Memory fresh(
      CommandContext ctx, Namespace ns, MemoryDraft d, MemoryStatus status) {
    Instant now = ctx.now();
    return new Memory(
        ctx.newId(),
        ns,
        d.type(),
        d.content(),
        d.confidence(),
        status,
        d.slot(),
        d.subjectIds(),
        0,
        d.provenance(),
        Optional.empty(),
        Optional.empty(),
        1,
        now,
        now);
  }

  private static void requireStatus(Memory m, MemoryStatus... allowed) {
    for (MemoryStatus s : allowed) {
      if (m.status() == s) {
        return;
      }
    }
    throw new InvalidRequestException(
        "status",
        "memory '"
            + m.id()
            + "' is "
            + m.status().label()
            + "; expected "
            + java.util.Arrays.stream(allowed)
                .map(MemoryStatus::label)
                .collect(java.util.stream.Collectors.joining(" or ")));
  }

  /** Content as compared for sameness: trimmed, lower case, single spaces. */
  static String normal(String content) {
    return content.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
  }

  private static Event memoryEvent(Memory m) {
    return Event.ofJson(MEMORY, Json.write(GovernWire.memory(m)), m);
  }

  private static Event conflictEvent(Conflict c) {
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
