package dev.loci.internal;

import dev.loci.CorruptJournalException;
import dev.loci.Damage;
import dev.loci.LociException;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The write pipeline: command, then validation against current state, then events appended as one
 * batch, then durability, then projections, in sequence order.
 *
 * <p>Design. Commands decide one at a time under {@code applyLock}, the lock appliers hold too, so
 * the projections cannot change while a command reads them. A decision names the keys (record ids)
 * it depends on. Its batch is appended to the journal while the lock is still held, so sequence
 * numbers follow decision order, and is then registered as pending. The command releases the lock
 * before waiting for durability, so other commands decide and append meanwhile and the journal can
 * share one fsync among them (group commit). Once durable, batches are applied strictly in sequence
 * order by whichever waiter gets there first, so readers only ever see durable state. A command
 * whose keys overlap a pending batch's keys waits until that batch is applied and decides again:
 * validation never misses a change that is written but not yet visible.
 *
 * <p>Ids and timestamps come from the {@link CommandContext} when the command is decided and are
 * stored in the events, so replaying the journal rebuilds exactly the same state.
 *
 * <p>Thread-safe. Reads ({@link #read}) run under the shared lock and may run concurrently with
 * each other and with appends; they wait only while a batch is being applied.
 */
public final class Engine implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Engine.class.getName());

  /** A command: reads current state and decides which events to append. */
  @FunctionalInterface
  public interface Command<R> {
    /**
     * Decides against current state. Runs with shared access to the projections and must not change
     * them.
     *
     * @throws LociException if the command is invalid for the current state; nothing is written
     */
    Decision<R> decide(CommandContext context);
  }

  /**
   * What a command decided.
   *
   * @param events the events to append, empty if nothing changes
   * @param keys the record ids the decision depends on or changes, in the command's namespace
   * @param result what the command returns to its caller once the events are applied
   */
  public record Decision<R>(List<Event> events, Set<String> keys, R result) {
    /** Copies the collections. */
    public Decision {
      events = List.copyOf(events);
      keys = Set.copyOf(keys);
    }
  }

  /** The clock reading and id source of one command. */
  public static final class CommandContext {
    private final Instant now;
    private final UuidV7 ids;

    CommandContext(Instant now, UuidV7 ids) {
      this.now = now;
      this.ids = ids;
    }

    /** When the command was accepted, in microseconds; the same for every call. */
    public Instant now() {
      return now;
    }

    /** A new UUID v7 id, increasing across the engine's lifetime. */
    public String newId() {
      return ids.next(now).toString();
    }
  }

  private record Pending(JournalEntry entry, List<String> keys) {}

  private final Journal journal;
  private final Optional<SnapshotStore> snapshots;
  private final Map<String, Layer> layers;
  private final Clock clock;
  private final UuidV7 ids = new UuidV7();
  private final List<Damage> openDamage;

  private final ReentrantLock snapshotLock = new ReentrantLock();
  private final ReentrantReadWriteLock stateLock = new ReentrantReadWriteLock();
  private final ReentrantLock applyLock = new ReentrantLock();
  private final Condition appliedAdvanced = applyLock.newCondition();
  private final Map<Long, Pending> pending = new HashMap<>(); // guarded by applyLock
  private final Map<String, Long> pendingKeys = new HashMap<>(); // guarded by applyLock
  private volatile long appliedSeq; // written under stateLock write + applyLock
  private volatile long snapshotSeq;
  private volatile LociException failure;
  private Instant lastNow = Instant.EPOCH; // guarded by applyLock
  private volatile boolean closed;

  private Engine(
      Journal journal,
      Optional<SnapshotStore> snapshots,
      List<Layer> layers,
      Clock clock,
      List<Damage> openDamage) {
    this.journal = journal;
    this.snapshots = snapshots;
    Map<String, Layer> byName = new LinkedHashMap<>();
    for (Layer l : layers) {
      if (byName.put(l.name(), l) != null) {
        throw new IllegalArgumentException("two layers are named '" + l.name() + "'");
      }
    }
    this.layers = Map.copyOf(byName);
    this.clock = clock;
    this.openDamage = openDamage;
  }

  /**
   * Opens an engine: restores the newest valid snapshot, replays the journal after it, and reports
   * damage found on the way.
   *
   * @param initialDamage damage the journal already repaired while opening (a torn tail)
   * @throws StorageException if a snapshot is of an unknown version or the journal holds events of
   *     a layer this build does not include
   */
  public static Engine open(
      Journal journal,
      Optional<SnapshotStore> snapshots,
      List<Layer> layers,
      Clock clock,
      List<Damage> initialDamage) {
    List<Damage> damage = new ArrayList<>(initialDamage);
    Engine engine = new Engine(journal, snapshots, layers, clock, damage);
    engine.recover(damage);
    return engine;
  }

  private void recover(List<Damage> damage) {
    long fromSnapshot = 0;
    if (snapshots.isPresent()) {
      for (Path file : snapshots.get().list()) {
        try {
          SnapshotStore.Header header = SnapshotStore.check(file);
          for (String layer : header.layers().keySet()) {
            if (!layers.containsKey(layer)) {
              throw new StorageException(
                  "snapshot " + file + " holds layer '" + layer + "' that this Loci build lacks");
            }
          }
          layers.values().forEach(Layer::clear);
          SnapshotStore.load(
              file,
              (layer, record) ->
                  layers.get(layer).restore(record, header.layers().getOrDefault(layer, 0)));
          fromSnapshot = header.seq();
          break;
        } catch (CorruptJournalException e) {
          layers.values().forEach(Layer::clear);
          Damage d =
              new Damage(
                  Damage.Kind.BAD_SNAPSHOT,
                  file,
                  e.offset(),
                  OptionalLong.of(SnapshotStore.seqOf(file)),
                  e.detail() + "; using an older snapshot or the journal");
          LOG.log(System.Logger.Level.WARNING, d.toString());
          damage.add(d);
        }
      }
    }
    snapshotSeq = fromSnapshot;
    long[] last = {fromSnapshot};
    journal.read(
        fromSnapshot + 1,
        entry -> {
          applyReplayed(entry, damage);
          last[0] = entry.seq();
        },
        d -> {
          LOG.log(System.Logger.Level.WARNING, "journal: " + d);
          damage.add(d);
        });
    if (journal.lastSeq() < fromSnapshot) {
      journal.advanceTo(fromSnapshot);
    }
    appliedSeq = Math.max(journal.lastSeq(), last[0]);
  }

  private void applyReplayed(JournalEntry entry, List<Damage> damage) {
    try {
      prepare(entry).forEach(Runnable::run);
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

  /** Prepares every layer's part of a batch; nothing changes unless all of them prepare. */
  private List<Runnable> prepare(JournalEntry entry) {
    Map<String, List<Event>> byLayer = new LinkedHashMap<>();
    for (Event e : entry.events()) {
      if (!layers.containsKey(e.layer())) {
        throw new StorageException(
            "batch "
                + entry.seq()
                + " holds event type '"
                + e.type()
                + "' of layer '"
                + e.layer()
                + "', which this Loci build lacks; refusing to open rather than drop it");
      }
      byLayer.computeIfAbsent(e.layer(), k -> new ArrayList<>()).add(e);
    }
    List<Runnable> commits = new ArrayList<>(byLayer.size());
    byLayer.forEach((layer, events) -> commits.add(layers.get(layer).prepare(entry, events)));
    return commits;
  }

  /** Damage found and repaired while opening. */
  public List<Damage> openDamage() {
    return List.copyOf(openDamage);
  }

  /** The sequence number of the last batch applied to the projections. */
  public long appliedSeq() {
    return appliedSeq;
  }

  /** The sequence number of the snapshot the engine opened from or last wrote, 0 if none. */
  public long snapshotSeq() {
    return snapshotSeq;
  }

  /**
   * Runs a command: decides, appends, waits for durability, applies, returns the result.
   *
   * @throws LociException what the command throws when invalid, or {@link StorageException} if the
   *     journal fails; in either case nothing the caller can see has changed
   */
  public <R> R execute(Namespace namespace, String actor, Command<R> command) {
    while (true) {
      Decision<R> decision;
      Journal.Appended appended = null;
      long waitFor = 0;
      // Deciding, checking pending keys, appending and registering happen under applyLock, which
      // appliers hold too: the decision saw every applied batch, every other one is still
      // pending, and sequence numbers follow decision order.
      applyLock.lock();
      try {
        checkUsable();
        Instant now = Timestamps.truncate(clock.instant());
        if (now.isBefore(lastNow)) {
          now = lastNow; // the wall clock stepped back: keep command time monotonic
        }
        lastNow = now;
        decision = command.decide(new CommandContext(now, ids));
        List<String> keys = new ArrayList<>(decision.keys().size());
        for (String k : decision.keys()) {
          keys.add(namespace.value() + '\u0000' + k);
        }
        for (String k : keys) {
          Long seq = pendingKeys.get(k);
          if (seq != null) {
            waitFor = Math.max(waitFor, seq);
          }
        }
        if (waitFor == 0 && !decision.events().isEmpty()) {
          Batch batch = new Batch(now, namespace, actor, decision.events());
          appended = journal.append(batch);
          JournalEntry entry = JournalEntry.of(appended.seq(), batch);
          pending.put(entry.seq(), new Pending(entry, keys));
          for (String k : keys) {
            pendingKeys.put(k, entry.seq());
          }
        }
      } finally {
        applyLock.unlock();
      }
      if (waitFor > 0) {
        awaitApplied(waitFor);
        continue;
      }
      if (appended == null) {
        return decision.result();
      }
      try {
        appended.awaitDurable();
      } catch (StorageException e) {
        failAll(e);
        throw e;
      }
      applyThrough(appended.seq());
      return decision.result();
    }
  }

  /**
   * Applies pending batches in order through {@code seq}, which is durable, and on through every
   * later batch the journal has already made durable (they usually share the fsync), so that the
   * other writers of the group find their batch applied without taking the lock.
   */
  private void applyThrough(long seq) {
    if (appliedSeq >= seq) {
      return;
    }
    applyLock.lock();
    try {
      long target = Math.max(seq, journal.durableSeq());
      while (appliedSeq < target) {
        checkNotFailed();
        Pending next = pending.get(appliedSeq + 1);
        if (next == null) {
          if (appliedSeq >= seq) {
            break; // durable but not yet registered: its writer is still in the append section
          }
          throw failAll(
              new StorageException("internal error: batch " + (appliedSeq + 1) + " went missing"));
        }
        stateLock.writeLock().lock();
        try {
          prepare(next.entry()).forEach(Runnable::run);
          appliedSeq = next.entry().seq();
        } catch (RuntimeException e) {
          throw failAll(
              new StorageException(
                  "internal error: durable batch " + next.entry().seq() + " did not apply", e));
        } finally {
          stateLock.writeLock().unlock();
        }
        pending.remove(next.entry().seq());
        for (String k : next.keys()) {
          pendingKeys.remove(k, next.entry().seq());
        }
      }
      appliedAdvanced.signalAll();
    } finally {
      applyLock.unlock();
    }
  }

  private void awaitApplied(long seq) {
    applyLock.lock();
    try {
      while (appliedSeq < seq) {
        checkNotFailed();
        appliedAdvanced.awaitUninterruptibly();
      }
    } finally {
      applyLock.unlock();
    }
  }

  private LociException failAll(LociException e) {
    applyLock.lock();
    try {
      if (failure == null) {
        failure = e;
      }
      appliedAdvanced.signalAll();
    } finally {
      applyLock.unlock();
    }
    return e;
  }

  private void checkUsable() {
    if (closed) {
      throw new StorageException("this Loci instance is closed");
    }
    checkNotFailed();
  }

  private void checkNotFailed() {
    LociException f = failure;
    if (f != null) {
      throw new StorageException(
          "writes are stopped after an earlier failure ("
              + f.getMessage()
              + "); acknowledged writes are safe, reopen the data directory to continue",
          f);
    }
  }

  /** Runs {@code read} with shared access to the projections. */
  public <R> R read(Supplier<R> read) {
    stateLock.readLock().lock();
    try {
      return read.get();
    } finally {
      stateLock.readLock().unlock();
    }
  }

  /**
   * Writes a snapshot of every layer at the current applied sequence and returns that sequence.
   *
   * @throws IllegalStateException if the engine has no snapshot store
   */
  public long snapshot() {
    snapshotLock.lock();
    try {
      return snapshotLocked();
    } finally {
      snapshotLock.unlock();
    }
  }

  private long snapshotLocked() {
    SnapshotStore store =
        snapshots.orElseThrow(() -> new IllegalStateException("this journal keeps no snapshots"));
    Map<String, Map.Entry<Integer, Iterable<String>>> captured = new LinkedHashMap<>();
    long seq;
    Instant ts;
    stateLock.readLock().lock();
    try {
      seq = appliedSeq;
      ts = Timestamps.truncate(clock.instant());
      for (Layer l : layers.values()) {
        captured.put(l.name(), new AbstractMap.SimpleEntry<>(l.snapshotVersion(), l.capture()));
      }
    } finally {
      stateLock.readLock().unlock();
    }
    journal.sync(); // never let a snapshot get ahead of the durable journal
    store.write(seq, ts, captured);
    snapshotSeq = seq;
    return seq;
  }

  /**
   * Snapshots, then deletes journal segments and snapshots the new snapshot makes redundant.
   *
   * @return the snapshot's sequence number and how many segments were deleted
   */
  public long[] compact() {
    snapshotLock.lock();
    try {
      journal.roll();
      long seq = snapshotLocked();
      int segments = journal.deleteThrough(seq);
      snapshots.ifPresent(s -> s.deleteOlderThan(seq));
      return new long[] {seq, segments};
    } finally {
      snapshotLock.unlock();
    }
  }

  /** The journal the engine writes to. */
  public Journal journal() {
    return journal;
  }

  /**
   * Stops accepting commands, lets commands already appended finish (durable and applied), then
   * closes the journal.
   */
  @Override
  public void close() {
    applyLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      while (!pending.isEmpty() && failure == null) {
        appliedAdvanced.awaitUninterruptibly();
      }
    } finally {
      applyLock.unlock();
    }
    journal.close();
  }
}
