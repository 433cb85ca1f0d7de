package dev.loci.govern.internal;

import dev.loci.govern.Conflict;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.StateEntry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One namespace's governed records, with the indexes that keep every decision and every context
 * pack off a scan of the whole namespace: the open fact of each (type, content, subjects), the
 * active memories of each slot, of each type and containing each word, and the open conflict of
 * each slot. Not thread-safe: the layer changes it only while applying a batch.
 */
final class Shelf {
  final Map<String, List<Memory>> memories = new LinkedHashMap<>(); // versions, oldest first
  final Map<String, Conflict> conflicts = new LinkedHashMap<>();
  final Map<String, StateEntry> state = new TreeMap<>();
  final Map<String, String> openFacts = new HashMap<>(); // fact key -> candidate or active id
  final Map<String, Set<String>> activeBySlot = new HashMap<>(); // slot key -> ids
  final Map<MemoryType, Set<String>> activeByType = new EnumMap<>(MemoryType.class);

  /**
   * The active memories of each type in the order a context pack's trusted slots take them: most
   * confident first, then most recently updated, then by id. Kept in step with every put, so a pack
   * reads the first few instead of sorting every active memory of the type per request.
   */
  final Map<MemoryType, java.util.NavigableSet<Memory>> trustedOrder =
      new EnumMap<>(MemoryType.class);

  /** The order of {@link #trustedOrder}. */
  static final java.util.Comparator<Memory> TRUSTED =
      java.util.Comparator.comparingDouble(Memory::confidence)
          .reversed()
          .thenComparing(Memory::updatedAt, java.util.Comparator.reverseOrder())
          .thenComparing(Memory::id);

  final WordPostings activeByWord = new WordPostings(); // word -> ids, by confidence

  /**
   * The cl100k_base tokens of active memories' content, by id, counted when a context pack first
   * takes the memory (packs run concurrently under the engine's shared access, hence a concurrent
   * map) and kept while the memory stays active with the same content: a memory's content never
   * changes across its versions, so reinforcements keep the count; a version that leaves active or
   * changes the content (erasure) drops it.
   */
  final Map<String, Integer> tokens = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * {@link GovernLayer#overruled} as last computed, or null once a conflict changed: packs read it
   * under shared access (a race computes the same set twice), conflict writes clear it.
   */
  volatile Set<String> overruled;

  final Map<String, String> openBySlot = new HashMap<>(); // slot key -> open conflict id
  final EntityShelf entities = new EntityShelf();
  final Map<String, String> settings = new TreeMap<>();

  /** What makes two memories the same fact: type, normalized content, sorted subjects. */
  static String factKey(MemoryType type, String content, List<String> subjects) {
    return type.label()
        + "|"
        + normal(content)
        + "|"
        + String.join(",", subjects.stream().sorted().toList());
  }

  /** Content as compared for sameness: trimmed, lower case, single spaces. */
  static String normal(String content) {
    return content.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
  }

  /** The words of a text as context packs match them: letters and digits, 3 or more. */
  static Set<String> words(String text) {
    Set<String> out = new HashSet<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (w.length() > 2) {
        out.add(w);
      }
    }
    return out;
  }

  /** Puts a conflict's new version, keeping the open-conflict index in step. */
  void put(Conflict c) {
    overruled = null;
    conflicts.put(c.id(), c);
    if (c.status() == Conflict.Status.OPEN) {
      openBySlot.put(c.slotKey(), c.id());
    } else {
      openBySlot.remove(c.slotKey(), c.id());
    }
  }

  /** Takes a record's newest version out of the indexes, before its versions are replaced. */
  void unindexNewest(List<Memory> versions) {
    Memory newest = versions.get(versions.size() - 1);
    unindex(newest);
    tokens.remove(newest.id());
  }

  /** The tokens of active memory {@code m}'s content, counted once. */
  int tokens(Memory m) {
    return tokens.computeIfAbsent(m.id(), id -> ContextBuilder.tokens(m.content()));
  }

  /** The newest version of memory {@code id}, which must exist. */
  Memory newest(String id) {
    List<Memory> v = memories.get(id);
    return v.get(v.size() - 1);
  }

  /** Puts a new version, keeping the indexes in step. */
  void put(Memory m) {
    List<Memory> versions = memories.computeIfAbsent(m.id(), k -> new ArrayList<>());
    if (!versions.isEmpty()) {
      Memory before = versions.get(versions.size() - 1);
      unindex(before);
      if (!before.content().equals(m.content())) {
        tokens.remove(m.id());
      }
    }
    if (m.status() != MemoryStatus.ACTIVE) {
      tokens.remove(m.id());
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
          .ifPresent(k -> activeBySlot.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(m.id()));
      activeByType.computeIfAbsent(m.type(), x -> new LinkedHashSet<>()).add(m.id());
      trustedOrder.computeIfAbsent(m.type(), x -> new java.util.TreeSet<>(TRUSTED)).add(m);
      activeByWord.add(m.id(), m.confidence(), words(m.content()));
    }
  }

  private void unindex(Memory m) {
    if (open(m)) {
      openFacts.remove(factKey(m.type(), m.content(), m.subjectIds()), m.id());
    }
    if (m.status() == MemoryStatus.ACTIVE) {
      m.slotKey().ifPresent(k -> removeFrom(activeBySlot, k, m.id()));
      removeFrom(activeByType, m.type(), m.id());
      java.util.NavigableSet<Memory> ordered = trustedOrder.get(m.type());
      if (ordered != null && ordered.remove(m) && ordered.isEmpty()) {
        trustedOrder.remove(m.type());
      }
      activeByWord.remove(m.id(), m.confidence(), words(m.content()));
    }
  }

  static <K> void removeFrom(Map<K, Set<String>> index, K key, String id) {
    Set<String> ids = index.get(key);
    if (ids != null && ids.remove(id) && ids.isEmpty()) {
      index.remove(key);
    }
  }

  private static boolean open(Memory m) {
    return m.status() == MemoryStatus.CANDIDATE || m.status() == MemoryStatus.ACTIVE;
  }
}
