package dev.loci.internal;

import dev.loci.Damage;
import dev.loci.StorageException;
import dev.loci.spi.BatchObserver;
import dev.loci.spi.ErasingEvents;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SubjectRecords;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The engine's layers and how journal batches change them: every batch is prepared by each layer it
 * touches and by every {@link BatchObserver}, and applied only if all of them prepared, under the
 * exclusive state lock; readers take the shared lock. Tracks the last applied sequence number and
 * how many events were applied since the last snapshot.
 *
 * <p>Only the engine's combiner (or its recovery, before anyone else can see the engine) applies
 * batches, so {@link #prepare} runs without the state lock: nothing else changes the projections
 * meanwhile.
 */
final class Projections {
  private static final System.Logger LOG = System.getLogger(Projections.class.getName());

  private final Map<String, Layer> layers;
  private final List<Layer> layerList; // the same layers in the given order: no iterator per write
  private final List<BatchObserver> observers;
  private final Map<String, ErasingEvents> erasing; // the layers whose events may erase records
  private final ReentrantReadWriteLock stateLock = new ReentrantReadWriteLock();
  private final AtomicLong eventsSinceSnapshot = new AtomicLong(); // applied or replayed
  // an applied event erased records (ErasingEvents): the snapshots still hold them
  private final AtomicBoolean snapshotsStale;
  private volatile long appliedSeq; // written under the state write lock (or while recovering)
  // what replayed erasing events erased, while recovering (null otherwise): erased again once the
  // layers' indexes are open, since a layer may not touch its files while recovering
  private Map<String, Set<String>> erasedInRecovery;

  /**
   * @param snapshotsStale set when an applied event erased records that snapshots still hold
   * @throws IllegalArgumentException if two layers share a name
   */
  Projections(List<Layer> layers, AtomicBoolean snapshotsStale) {
    Map<String, Layer> byName = new LinkedHashMap<>();
    for (Layer l : layers) {
      if (byName.put(l.name(), l) != null) {
        throw new IllegalArgumentException("two layers are named '" + l.name() + "'");
      }
    }
    this.layers = Map.copyOf(byName);
    this.layerList = List.copyOf(byName.values());
    List<BatchObserver> watching = new ArrayList<>();
    for (Layer l : layers) {
      if (l instanceof BatchObserver o) {
        o.bind(List.copyOf(layers));
        watching.add(o);
      }
    }
    this.observers = List.copyOf(watching);
    Map<String, ErasingEvents> erasers = new HashMap<>();
    byName.forEach(
        (name, l) -> {
          if (l instanceof ErasingEvents x) {
            erasers.put(name, x);
          }
        });
    this.erasing = erasers;
    this.snapshotsStale = snapshotsStale;
  }

  Map<String, Layer> layers() {
    return layers;
  }

  long appliedSeq() {
    return appliedSeq;
  }

  long eventsSinceSnapshot() {
    return eventsSinceSnapshot.get();
  }

  /** Starts recording what replayed erasing events erase; see {@link #endRecovery}. */
  void beginRecovery() {
    erasedInRecovery = new LinkedHashMap<>();
  }

  /**
   * Ends recovery at {@code seq}: tells every layer, then erases again, with the layers' files
   * open, what replayed erasing events erased. Returns whether anything was.
   */
  boolean endRecovery(long seq) {
    appliedSeq = seq;
    layers.values().forEach(l -> l.recovered(seq));
    Map<String, Set<String>> erased = erasedInRecovery;
    erasedInRecovery = null;
    if (erased.isEmpty()) {
      return false;
    }
    eraseApplied(erased);
    return true;
  }

  /** Empties every layer (a snapshot that turned out bad was partly restored). */
  void clear() {
    layers.values().forEach(Layer::clear);
  }

  /** Where the records of snapshot {@code file} go, once its header is read: each its layer. */
  SnapshotStore.RecordSink restoring(Path file, SnapshotStore.Header header) {
    for (String layer : header.layers().keySet()) {
      if (!layers.containsKey(layer)) {
        throw new StorageException(
            "snapshot " + file + " holds layer '" + layer + "' that this Loci build lacks");
      }
    }
    clear();
    return new SnapshotStore.RecordSink() {
      // the layer of the previous record (a snapshot holds each layer's records together, and
      // passes the same name string for them): two map lookups per record were about 4% of a
      // restore of a million-node graph
      private String lastName;
      private Layer last;
      private int lastVersion;

      @Override
      public void record(String layer, byte[] buf, int off, int len) {
        if (layer != lastName) {
          last = layers.get(layer);
          lastVersion = header.layers().getOrDefault(layer, 0);
          lastName = layer;
        }
        last.restore(buf, off, len, lastVersion);
      }
    };
  }

  /**
   * Applies a batch read from the journal (replay, or a catch-up with the state lock held); a batch
   * whose events do not apply is skipped and reported as damage.
   */
  void applyReplayed(JournalEntry entry, List<Damage> damage) {
    try {
      prepare(entry).forEach(Runnable::run);
      eventsSinceSnapshot.addAndGet(entry.events().size());
    } catch (IllegalStateException | IllegalArgumentException e) {
      Damage d =
          new Damage(
              Damage.Kind.APPLY_ERROR,
              Path.of("journal"),
              -1,
              OptionalLong.of(entry.seq()),
              "batch skipped, its events do not apply: " + e.getMessage());
      LOG.log(System.Logger.Level.WARNING, d.toString());
      damage.add(d);
    }
  }

  /**
   * Applies a batch that another writer appended (a catch-up), under the exclusive lock, and makes
   * it the last applied one.
   */
  void applyCaughtUp(JournalEntry entry, List<Damage> damage) {
    stateLock.writeLock().lock();
    try {
      applyReplayed(entry, damage);
      appliedSeq = entry.seq();
    } finally {
      stateLock.writeLock().unlock();
    }
  }

  /**
   * Applies durable batches in sequence order under the exclusive lock. Every batch is prepared
   * before anything changes, so a batch that cannot apply leaves the projections untouched and no
   * caller is told "failed" about a change others can see; the batches touch disjoint keys, so each
   * prepares against the same state.
   *
   * @throws RuntimeException what a layer threw; nothing changed then
   */
  void applyDurable(List<JournalEntry> entries) {
    stateLock.writeLock().lock();
    try {
      List<Runnable> commits = new ArrayList<>();
      for (JournalEntry entry : entries) {
        commits.addAll(prepare(entry));
      }
      commits.forEach(Runnable::run);
      long events = 0;
      for (JournalEntry entry : entries) {
        events += entry.events().size();
      }
      eventsSinceSnapshot.addAndGet(events);
      appliedSeq = entries.get(entries.size() - 1).seq();
      for (Layer l : layerList) {
        l.applied(appliedSeq);
      }
    } finally {
      stateLock.writeLock().unlock();
    }
  }

  /**
   * Tells every layer, under the exclusive lock, that batches through {@link #appliedSeq} apply.
   */
  void tellApplied() {
    stateLock.writeLock().lock();
    try {
      for (Layer l : layers.values()) {
        l.applied(appliedSeq);
      }
    } finally {
      stateLock.writeLock().unlock();
    }
  }

  /**
   * Prepares every layer's part of a batch; nothing changes unless all of them prepare. A batch
   * whose events are all of one layer (nearly every batch) skips grouping them by layer.
   */
  private List<Runnable> prepare(JournalEntry entry) {
    List<Event> events = entry.events();
    String only = events.isEmpty() ? null : events.get(0).layer();
    for (int i = 1; i < events.size() && only != null; i++) {
      if (!events.get(i).layer().equals(only)) {
        only = null;
      }
    }
    List<Runnable> commits = new ArrayList<>(2 + observers.size());
    if (only != null) {
      commits.add(layer(entry, events.get(0)).prepare(entry, events));
    } else {
      Map<Layer, List<Event>> byLayer = new LinkedHashMap<>();
      for (Event e : events) {
        byLayer.computeIfAbsent(layer(entry, e), k -> new ArrayList<>()).add(e);
      }
      byLayer.forEach((layer, part) -> commits.add(layer.prepare(entry, part)));
    }
    for (BatchObserver o : observers) {
      commits.add(o.observe(entry));
    }
    for (int i = 0; i < events.size() && !erasing.isEmpty(); i++) {
      Event e = events.get(i);
      ErasingEvents x = erasing.get(e.layer());
      if (x != null) {
        Map<String, Set<String>> erased = x.erases(e);
        if (!erased.isEmpty()) {
          commits.add(() -> eraseApplied(erased));
        }
      }
    }
    return commits;
  }

  /** The layer of {@code e}, which this build must include. */
  private Layer layer(JournalEntry entry, Event e) {
    Layer l = layers.get(e.layer());
    if (l == null) {
      throw new StorageException(
          "batch "
              + entry.seq()
              + " holds event type '"
              + e.type()
              + "' of layer '"
              + e.layer()
              + "', which this Loci build lacks; refusing to open rather than drop it");
    }
    return l;
  }

  /**
   * Has each holding layer erase the records of an applied erasing event from its state and files;
   * the snapshots are marked stale, to be replaced once the combiner is released. Runs with
   * exclusive access.
   */
  private void eraseApplied(Map<String, Set<String>> idsByLayer) {
    idsByLayer.forEach(
        (name, keys) -> {
          if (layers.get(name) instanceof SubjectRecords r) {
            r.erase(keys);
          }
          if (erasedInRecovery != null) {
            erasedInRecovery.computeIfAbsent(name, k -> new HashSet<>()).addAll(keys);
          }
        });
    snapshotsStale.set(true);
  }

  /** Has the holders erase records from state and files, under the exclusive lock. */
  void erase(Map<String, SubjectRecords> holders, Map<String, Set<String>> idsByLayer) {
    stateLock.writeLock().lock();
    try {
      holders.forEach((name, r) -> r.erase(idsByLayer.get(name)));
    } finally {
      stateLock.writeLock().unlock();
    }
    snapshotsStale.set(true);
  }

  /**
   * Lets every layer finish, with shared access, what applying left to do ({@link Layer#settle}):
   * run by each caller before its command returns, so that this work overlaps the combiner's next
   * round instead of holding readers off under the exclusive lock.
   */
  void settle() {
    read(settling);
  }

  // one for every call: the write path settles after each command
  private final Supplier<Void> settling = this::settleLayers;

  private Void settleLayers() {
    for (int i = 0; i < layerList.size(); i++) {
      layerList.get(i).settle();
    }
    return null;
  }

  /** Runs {@code read} with shared access to the projections. */
  <R> R read(Supplier<R> read) {
    stateLock.readLock().lock();
    try {
      return read.get();
    } finally {
      stateLock.readLock().unlock();
    }
  }

  /** What a snapshot holds: each layer's records at one applied sequence. */
  record Captured(
      long seq, long events, Map<String, Map.Entry<Integer, Iterable<String>>> layers) {}

  /** Each layer's snapshot records, with the sequence they reflect, under the shared lock. */
  Captured capture() {
    return read(
        () -> {
          Map<String, Map.Entry<Integer, Iterable<String>>> captured = new LinkedHashMap<>();
          for (Layer l : layers.values()) {
            captured.put(l.name(), new AbstractMap.SimpleEntry<>(l.snapshotVersion(), l.capture()));
          }
          return new Captured(appliedSeq, eventsSinceSnapshot.get(), captured);
        });
  }

  /** A snapshot of {@code events} applied events was written. */
  void snapshotTaken(long events) {
    eventsSinceSnapshot.addAndGet(-events);
  }

  /** Closes every layer at the last applied sequence, under the exclusive lock. */
  void close() {
    RuntimeException failed = null;
    stateLock.writeLock().lock();
    try {
      for (Layer l : layers.values()) {
        try {
          l.close(appliedSeq);
        } catch (RuntimeException e) {
          if (failed == null) {
            failed = e;
          } else {
            failed.addSuppressed(e);
          }
        }
      }
    } finally {
      stateLock.writeLock().unlock();
    }
    if (failed != null) {
      throw failed;
    }
  }
}
