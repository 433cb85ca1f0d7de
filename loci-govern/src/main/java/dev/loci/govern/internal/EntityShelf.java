package dev.loci.govern.internal;

import dev.loci.govern.Entity;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityType;
import dev.loci.govern.Interaction;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One namespace's entities and captured interactions, with the indexes decisions and context packs
 * use: the open entity of each identity (type, name, values), the active entities of each field
 * slot, of each cross-layer key, of each type and containing each word. Not thread-safe: the layer
 * changes it only while applying a batch.
 */
final class EntityShelf {
  final Map<String, List<Entity>> entities = new LinkedHashMap<>(); // versions, oldest first
  final Map<String, Interaction> interactions = new LinkedHashMap<>();
  final Map<String, String> openFacts = new HashMap<>(); // identity key -> candidate/active id
  final Map<String, Set<String>> activeBySlot = new HashMap<>(); // field slot key -> ids
  final Map<String, Set<String>> activeByCross = new HashMap<>(); // cross-layer key -> ids
  final Map<EntityType, Set<String>> activeByType = new EnumMap<>(EntityType.class);
  final WordPostings activeByWord = new WordPostings(); // word -> ids, by confidence

  /** What makes two entities the same: type, normalized name, values. */
  static String factKey(Entity e) {
    return factKey(e.type(), e.name(), e.values());
  }

  static String factKey(EntityType type, String name, Map<String, String> values) {
    StringBuilder b = new StringBuilder(type.label()).append('|').append(Entity.normalName(name));
    new java.util.TreeMap<>(values)
        .forEach((k, v) -> b.append('|').append(k).append('=').append(Shelf.normal(v)));
    return b.toString();
  }

  /** The newest version of entity {@code id}, which must exist. */
  Entity newest(String id) {
    List<Entity> v = entities.get(id);
    return v.get(v.size() - 1);
  }

  /** Whether any entity is active (the namespace has entities "in use"). */
  boolean inUse() {
    return activeByType.values().stream().anyMatch(s -> !s.isEmpty());
  }

  /** Puts a new version, keeping the indexes in step. */
  void put(Entity e) {
    List<Entity> versions = entities.computeIfAbsent(e.id(), k -> new ArrayList<>());
    if (!versions.isEmpty()) {
      unindex(versions.get(versions.size() - 1));
    }
    versions.add(e);
    index(e);
  }

  /** Replaces every version of entity {@code id} by {@code erase} of it, indexes in step. */
  void replaceAll(String id, java.util.function.UnaryOperator<Entity> erase) {
    List<Entity> versions = entities.remove(id);
    unindex(versions.get(versions.size() - 1));
    versions.forEach(v -> put(erase.apply(v)));
  }

  private void index(Entity e) {
    if (open(e)) {
      openFacts.put(factKey(e), e.id());
    }
    if (e.status() == EntityStatus.ACTIVE) {
      for (String f : e.fields().keySet()) {
        activeBySlot.computeIfAbsent(e.slotKey(f), x -> new LinkedHashSet<>()).add(e.id());
        activeByCross.computeIfAbsent(e.crossKey(f), x -> new LinkedHashSet<>()).add(e.id());
      }
      activeByType.computeIfAbsent(e.type(), x -> new LinkedHashSet<>()).add(e.id());
      activeByWord.add(e.id(), e.confidence(), Shelf.words(e.text()));
    }
  }

  private void unindex(Entity e) {
    if (open(e)) {
      openFacts.remove(factKey(e), e.id());
    }
    if (e.status() == EntityStatus.ACTIVE) {
      for (String f : e.fields().keySet()) {
        Shelf.removeFrom(activeBySlot, e.slotKey(f), e.id());
        Shelf.removeFrom(activeByCross, e.crossKey(f), e.id());
      }
      Shelf.removeFrom(activeByType, e.type(), e.id());
      activeByWord.remove(e.id(), e.confidence(), Shelf.words(e.text()));
    }
  }

  private static boolean open(Entity e) {
    return e.status() == EntityStatus.CANDIDATE || e.status() == EntityStatus.ACTIVE;
  }
}
