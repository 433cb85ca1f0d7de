package dev.loci.internal;

import dev.loci.CorruptJournalException;
import dev.loci.Damage;
import dev.loci.LociException;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.spi.AppendListener;
import dev.loci.spi.Batch;
import dev.loci.spi.BatchObserver;
import dev.loci.spi.Command;
import dev.loci.spi.CommandContext;
import dev.loci.spi.CommandExecutor;
import dev.loci.spi.Decision;
import dev.loci.spi.ErasingEvents;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalBehindException;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.JournalUnavailableException;
import dev.loci.spi.Layer;
import dev.loci.spi.SubjectRecords;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The write pipeline: command, then validation against current state, then events appended as one
 * batch, then durability, then projections, in sequence order.
 *
 * <p>Design (flat combining). A caller queues its command and, if no other thread is doing so,
 * becomes the combiner: it runs rounds of queued commands, its own and everyone else's, until its
 * own is done; the others park until the combiner completes their command or hands the role on. A
 * round decides its commands one after another against the projections, appends their batches with
 * one call ({@link Journal#appendBatches}: one write for the file journal), waits once for
 * durability (so under {@code always} a whole round shares one fsync: group commit), applies the
 * batches in sequence order under the exclusive state lock, and only then completes the commands. A
 * command whose keys (record ids) an earlier command of the same round also touches waits for the
 * next round, so every decision sees the effects of the commands it depends on. Readers only ever
 * see durable, applied state. What a layer does after applying that need not hold readers off
 * (updating its Lucene text index) runs in {@link Layer#settle}, with shared access, on each
 * caller's own thread before its command returns: it overlaps the combiner's next round. With one
 * writer there is no handoff at all; with many, each caller parks once per command. (A leader-based
 * fsync with one lock per step, and a dedicated writer thread, both measured slower on 2 cores: see
 * docs/benchmarks.md.)
 *
 * <p>Ids and timestamps come from the {@link CommandContext} when the command is decided and are
 * stored in the events, so replaying the journal rebuilds exactly the same state.
 *
 * <p>Nothing unbounded runs in a decision. Every write in every namespace waits for the combiner,
 * so work whose size a caller chooses (redacting free text, parsing or merging JSON, embedding) is
 * done by the facade before it calls {@link #execute}, and the decision only checks current state
 * and assembles events (see {@code dev.loci.pathway.internal.Redactions}): one slow write must
 * never hold up another namespace's.
 *
 * <p>Thread-safe. Reads ({@link #read}) run under the shared state lock and may run concurrently
 * with each other and with appends; they wait only while a round is being applied.
 */
public final class Engine implements CommandExecutor, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Engine.class.getName());

  private final Journal journal;
  private final Optional<SnapshotStore> snapshots;
  private final Map<String, Layer> layers;
  private final List<BatchObserver> observers;
  private final Clock clock;
  private final UuidV7 ids = new UuidV7();
  private final List<Damage> openDamage;

  private final ReentrantLock snapshotLock = new ReentrantLock();
  private final ReentrantReadWriteLock stateLock = new ReentrantReadWriteLock();
  private final ConcurrentLinkedQueue<Task<?>> queue = new ConcurrentLinkedQueue<>();
  private final ReentrantLock combiner = new ReentrantLock();
  private final ArrayDeque<Task<?>> deferred = new ArrayDeque<>(); // guarded by combiner
  private volatile long appliedSeq; // written by the combiner under the state write lock
  private final AtomicLong eventsSinceSnapshot = new AtomicLong(); // applied or replayed
  private volatile long snapshotSeq;
  private volatile LociException failure;
  private volatile boolean failureResumable; // the journal stopped writes, and may resume them
  private volatile long resumeTriedNanos = System.nanoTime();
  private Instant lastNow = Instant.EPOCH; // guarded by combiner
  private volatile boolean closed;
  private volatile AppendListener appendListener = AppendListener.NONE;
  // an applied event erased records (ErasingEvents): the snapshots still hold them
  private volatile boolean snapshotsStale;
  // what replayed erasing events erased, while recovering (null otherwise): erased again once the
  // layers' indexes are open, since a layer may not touch its files while recovering
  private Map<String, Set<String>> erasedInRecovery;

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
    List<BatchObserver> watching = new ArrayList<>();
    for (Layer l : layers) {
      if (l instanceof BatchObserver o) {
        o.bind(List.copyOf(layers));
        watching.add(o);
      }
    }
    this.observers = List.copyOf(watching);
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
    erasedInRecovery = new LinkedHashMap<>();
    long fromSnapshot = 0;
    if (snapshots.isPresent()) {
      for (Path file : snapshots.get().list()) {
        try {
          fromSnapshot = SnapshotStore.restore(file, h -> restoring(file, h)).seq();
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
    // the journal found its last number at its tail; a line out of order may have held a higher one
    if (journal.lastSeq() < Math.max(fromSnapshot, last[0])) {
      journal.advanceTo(Math.max(fromSnapshot, last[0]));
    }
    appliedSeq = Math.max(journal.lastSeq(), last[0]);
    layers.values().forEach(l -> l.recovered(appliedSeq));
    Map<String, Set<String>> erased = erasedInRecovery;
    erasedInRecovery = null;
    if (!erased.isEmpty()) {
      eraseApplied(erased);
      replaceStaleSnapshots();
    }
  }

  /** Where the records of snapshot {@code file} go, once its header is read: each its layer. */
  private SnapshotStore.RecordSink restoring(Path file, SnapshotStore.Header header) {
    for (String layer : header.layers().keySet()) {
      if (!layers.containsKey(layer)) {
        throw new StorageException(
            "snapshot " + file + " holds layer '" + layer + "' that this Loci build lacks");
      }
    }
    layers.values().forEach(Layer::clear);
    return (layer, buf, off, len) ->
        layers.get(layer).restore(buf, off, len, header.layers().getOrDefault(layer, 0));
  }

  private void applyReplayed(JournalEntry entry, List<Damage> damage) {
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
    for (BatchObserver o : observers) {
      commits.add(o.observe(entry));
    }
    for (Event e : entry.events()) {
      if (layers.get(e.layer()) instanceof ErasingEvents x) {
        Map<String, Set<String>> erased = x.erases(e);
        if (!erased.isEmpty()) {
          commits.add(() -> eraseApplied(erased));
        }
      }
    }
    return commits;
  }

  /**
   * Has each holding layer erase the records of an applied erasing event from its state and files;
   * the snapshots are replaced once the combiner is released. Runs with exclusive access.
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
    snapshotsStale = true;
  }

  /**
   * Replaces every snapshot by a fresh one of the current state if an applied event erased records
   * since the last time. Called without the combiner (snapshot, then combiner, is the lock order).
   */
  private void replaceStaleSnapshots() {
    if (!snapshotsStale) {
      return;
    }
    snapshotLock.lock();
    try {
      replaceSnapshotsLocked();
    } finally {
      snapshotLock.unlock();
    }
  }

  private void replaceSnapshotsLocked() {
    if (!snapshotsStale) {
      return;
    }
    snapshotsStale = false; // before the capture: an erasure applied after it sets it again
    if (snapshots.isPresent() && !snapshots.get().list().isEmpty()) {
      try {
        long seq = snapshotLocked();
        snapshots.get().deleteOlderThan(seq);
      } catch (RuntimeException e) {
        snapshotsStale = true;
        throw e;
      }
    }
  }

  /** Tells {@code listener} about every group of batches appended from now on. */
  public void listen(AppendListener listener) {
    this.appendListener = java.util.Objects.requireNonNull(listener, "listener");
  }

  /** Damage found and repaired while opening. */
  public List<Damage> openDamage() {
    return List.copyOf(openDamage);
  }

  /** The sequence number of the last batch applied to the projections. */
  public long appliedSeq() {
    return appliedSeq;
  }

  /**
   * Why writes cannot be taken now, if they cannot: writes stopped after a failure, or what the
   * journal reports ({@link Journal#unavailable()}: a disk that is full, a database that cannot be
   * reached).
   */
  public Optional<String> unavailable() {
    LociException f = failure;
    if (f != null) {
      return Optional.of(
          "writes are stopped after a failure ("
              + f.getMessage()
              + ")"
              + (failureResumable ? "; they resume when the journal can take them" : ""));
    }
    return journal.unavailable();
  }

  /**
   * Takes writes again after a journal failure that stopped them, if the journal can do so exactly
   * (see {@link Journal#resume()}); a failure to apply a durable batch is not resumed (the
   * projections may differ from the journal: reopen). Returns why writes are still refused, if they
   * are. Also tried on its own, at most once a second, by writes that find writes stopped.
   */
  public Optional<String> resume() {
    if (closed) {
      throw new StorageException("this Loci instance is closed");
    }
    combiner.lock();
    try {
      resumeTriedNanos = System.nanoTime();
      Optional<String> journalSays = journal.resume();
      if (failure != null && failureResumable) {
        LOG.log(System.Logger.Level.INFO, "writes resumed after: " + failure.getMessage());
        failure = null;
        failureResumable = false;
      }
      stateLock.readLock().lock();
      try {
        layers.values().forEach(Layer::resumed);
      } finally {
        stateLock.readLock().unlock();
      }
      return failure != null ? unavailable() : journalSays;
    } finally {
      combiner.unlock();
      handOver();
    }
  }

  private void resumeIfDue() {
    if (failure != null
        && failureResumable
        && System.nanoTime() - resumeTriedNanos > 1_000_000_000L) {
      resume();
    }
  }

  /** What the journal knows of its shared head; see {@link Journal#sharedHead()}. */
  public OptionalLong sharedHead() {
    return journal.sharedHead();
  }

  /** The sequence number of the snapshot the engine opened from or last wrote, 0 if none. */
  public long snapshotSeq() {
    return snapshotSeq;
  }

  /**
   * How many events were applied (written or replayed on open) since the newest snapshot was taken,
   * or since open if none was: roughly what the next open would replay.
   */
  public long eventsSinceSnapshot() {
    return eventsSinceSnapshot.get();
  }

  /**
   * Runs a command: decides, appends, waits for durability, applies, returns the result. The work
   * is done by whichever caller is the combiner at the time, possibly this one; an interrupt does
   * not cut the wait short (the command may already be durable), it is kept for the caller to see.
   *
   * @throws LociException what the command throws when invalid, or {@link StorageException} if the
   *     journal fails; in either case nothing the caller can see has changed
   */
  @Override
  public <R> R execute(Namespace namespace, String actor, Command<R> command) {
    resumeIfDue();
    checkUsable();
    Task<R> task = new Task<>(namespace, actor, command);
    queue.add(task);
    boolean interrupted = false;
    while (!task.done) {
      if (combiner.tryLock()) {
        try {
          combine(task);
        } finally {
          combiner.unlock();
          handOver(); // also when combine throws: nobody queued may be left without a combiner
        }
        try {
          replaceStaleSnapshots(); // a catch-up before the round applied another's erasure
        } catch (RuntimeException e) {
          // the command is done: the next command or catch-up tries the snapshots again
          LOG.log(System.Logger.Level.WARNING, "cannot replace the snapshots after an erasure", e);
        }
      } else {
        LockSupport.park(this);
        interrupted |= Thread.interrupted();
      }
    }
    settle();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return task.outcome();
  }

  /**
   * Lets every layer finish, with shared access, what applying left to do ({@link Layer#settle}):
   * run by each caller before its command returns, so that this work overlaps the combiner's next
   * round instead of holding readers off under the exclusive lock.
   */
  private void settle() {
    stateLock.readLock().lock();
    try {
      for (Layer l : layers.values()) {
        l.settle();
      }
    } finally {
      stateLock.readLock().unlock();
    }
  }

  /**
   * Wakes the caller of the oldest queued command so that it takes over as combiner. Called after
   * releasing the combiner lock: a command queued before the release is seen here, and one queued
   * after it finds the lock free, so no command is left waiting with nobody to run it.
   */
  private void handOver() {
    Task<?> next = queue.peek();
    if (next != null) {
      LockSupport.unpark(next.caller);
    }
  }

  /**
   * Runs rounds of queued commands until the combiner's own command is done and no command waits
   * for a next round. Called with the combiner lock held.
   */
  private void combine(Task<?> own) {
    List<Task<?>> round = new ArrayList<>();
    do {
      round.addAll(deferred);
      deferred.clear();
      for (Task<?> t; round.size() < MAX_ROUND && (t = queue.poll()) != null; ) {
        round.add(t);
      }
      if (round.isEmpty()) {
        return;
      }
      try {
        OptionalLong head = journal.sharedHead();
        if (head.isPresent() && head.getAsLong() > appliedSeq) {
          catchUpLocked(); // others appended: decide against their batches, not after a refusal
        }
        runRound(round, deferred);
      } catch (JournalUnavailableException e) {
        // reading the batches others appended failed (a lost connection): nothing of the round
        // was written and the state is what was applied so far, so later writes may succeed
        round.forEach(task -> task.fail(e));
        deferred.forEach(task -> task.fail(e));
        deferred.clear();
      } catch (RuntimeException | Error e) {
        LociException f =
            new StorageException("internal error while writing: " + e.getMessage(), e);
        failure = f;
        failureResumable = false;
        round.forEach(task -> task.fail(f));
        deferred.forEach(task -> task.fail(f));
        deferred.clear();
        if (e instanceof Error error) {
          throw error;
        }
      }
      round.clear();
    } while (own == null || !own.done || !deferred.isEmpty());
  }

  /** A queued command, and then its outcome. */
  private static final class Task<R> {
    final Namespace namespace;
    final String actor;
    final Command<R> command;
    final Thread caller = Thread.currentThread();
    private volatile boolean done;
    private R result;
    private Throwable error;

    Task(Namespace namespace, String actor, Command<R> command) {
      this.namespace = namespace;
      this.actor = actor;
      this.command = command;
    }

    void complete(Object value) {
      @SuppressWarnings("unchecked")
      R r = (R) value;
      result = r;
      done = true;
      LockSupport.unpark(caller);
    }

    void fail(Throwable e) {
      if (done) {
        return;
      }
      error = e;
      done = true;
      LockSupport.unpark(caller);
    }

    R outcome() {
      if (error instanceof RuntimeException e) {
        throw e;
      }
      if (error instanceof Error e) {
        throw e;
      }
      return result;
    }
  }

  /** A task whose command is decided and whose batch is still to be written. */
  private record Decided(Task<?> task, Batch batch, Object result) {}

  /** A task whose batch is written and waits for the round's fsync. */
  private record Staged(
      Task<?> task, JournalEntry entry, Journal.Appended appended, Object result) {}

  private static final int MAX_ROUND = 4096;

  /**
   * One round: decides the queued commands in order (a command whose keys an earlier one of the
   * round also touches waits for the next round, so it decides against applied state), writes their
   * batches, waits once for durability (one fsync for the whole round under {@code always}: group
   * commit), applies them in sequence order under the exclusive state lock, and only then completes
   * them. Only the combiner changes the projections, so it decides without the state lock.
   */
  private void runRound(List<Task<?>> round, ArrayDeque<Task<?>> deferred) {
    List<Decided> decided = new ArrayList<>(round.size());
    Set<String> roundKeys = new HashSet<>();
    for (Task<?> task : round) {
      if (failure != null) {
        task.fail(stoppedError(failure));
        continue;
      }
      Instant now = Timestamps.truncate(clock.instant());
      if (now.isBefore(lastNow)) {
        now = lastNow; // the wall clock stepped back: keep command time monotonic
      }
      lastNow = now;
      Decision<?> decision;
      try {
        decision = task.command.decide(new Context(now, ids));
      } catch (RuntimeException | Error e) {
        task.fail(e); // deciding changed nothing: only this command fails
        continue;
      }
      List<String> keys = new ArrayList<>(decision.keys().size());
      boolean conflict = false;
      for (String k : decision.keys()) {
        String key = task.namespace.value() + '\u0000' + k;
        keys.add(key);
        conflict |= roundKeys.contains(key);
      }
      if (conflict) {
        deferred.add(task);
        continue;
      }
      if (decision.events().isEmpty()) {
        task.complete(decision.result());
        continue;
      }
      roundKeys.addAll(keys);
      decided.add(
          new Decided(
              task,
              new Batch(now, task.namespace, task.actor, decision.events()),
              decision.result()));
    }
    List<Staged> staged = new ArrayList<>(decided.size());
    // one write for the round's batches (a file journal writes as many as fit in its segment)
    long appendStart = System.nanoTime();
    for (int done = 0; done < decided.size(); ) {
      List<Journal.Appended> appended;
      try {
        appended =
            journal.appendBatches(
                decided.subList(done, decided.size()).stream().map(Decided::batch).toList());
      } catch (StorageException e) {
        // Nothing of this call was written; what an earlier call wrote goes on to its fsync. Only
        // the first command fails, as if each were written alone: the rest are tried again, and
        // may succeed (a journal that writes one batch per call behaves exactly as before).
        decided.get(done++).task().fail(e);
        continue;
      }
      for (Journal.Appended a : appended) {
        Decided d = decided.get(done++);
        staged.add(new Staged(d.task(), JournalEntry.of(a.seq(), d.batch()), a, d.result()));
      }
    }
    if (staged.isEmpty()) {
      return;
    }
    try {
      staged.get(staged.size() - 1).appended().awaitDurable();
      appendListener.appended(staged.size(), System.nanoTime() - appendStart);
    } catch (JournalBehindException e) {
      // Another writer got there first and nothing of this round was written: apply its batches,
      // then decide the round's commands again, against the state they missed.
      catchUpLocked();
      staged.forEach(st -> deferred.add(st.task()));
      return;
    } catch (JournalUnavailableException e) {
      // nothing of the round was written and the journal is as before: later writes may succeed
      staged.forEach(st -> st.task().fail(e));
      return;
    } catch (StorageException e) {
      failureResumable = true; // the journal decides when it can take writes exactly again
      failure = e;
      staged.forEach(st -> st.task().fail(e));
      return;
    }
    // Prepare every batch before changing anything, so a batch that cannot apply leaves the
    // projections untouched and no caller is told "failed" about a change others can see. The
    // batches of a round touch disjoint keys, so each prepares against the same state.
    stateLock.writeLock().lock();
    try {
      List<Runnable> commits = new ArrayList<>();
      for (Staged st : staged) {
        commits.addAll(prepare(st.entry()));
      }
      commits.forEach(Runnable::run);
      long events = 0;
      for (Staged st : staged) {
        events += st.entry().events().size();
      }
      eventsSinceSnapshot.addAndGet(events);
      appliedSeq = staged.get(staged.size() - 1).entry().seq();
      for (Layer l : layers.values()) {
        l.applied(appliedSeq);
      }
    } catch (RuntimeException e) {
      LociException f =
          new StorageException("internal error: a durable batch did not apply: " + e, e);
      failure = f;
      failureResumable = false;
      staged.forEach(st -> st.task().fail(f));
      return;
    } finally {
      stateLock.writeLock().unlock();
    }
    staged.forEach(st -> st.task().complete(st.result()));
  }

  /**
   * Applies the batches that other writers appended to a shared journal since the last one this
   * engine applied (cluster mode: each server tails the database). Waits for a round in progress;
   * writes queued meanwhile run after. Returns how many batches were applied.
   *
   * @throws StorageException if the journal cannot be read or writes are stopped
   */
  public int catchUp() {
    checkUsable();
    combiner.lock();
    return catchUpHoldingCombiner();
  }

  /**
   * Like {@link #catchUp()} unless a round of writes is in progress, which catches up before it
   * decides; returns -1 then, and the caller tries again later if the round did not cover what it
   * wanted applied.
   */
  public int tryCatchUp() {
    checkUsable();
    if (!combiner.tryLock()) {
      return -1;
    }
    return catchUpHoldingCombiner();
  }

  private int catchUpHoldingCombiner() {
    try {
      if (failure != null) {
        throw stoppedError(failure);
      }
      return catchUpLocked();
    } finally {
      combiner.unlock();
      handOver();
      replaceStaleSnapshots();
    }
  }

  /**
   * Reads and applies batches after {@link #appliedSeq}; called with the combiner lock held. A
   * failure of the read itself (not of applying a batch) is a {@link JournalUnavailableException}:
   * what was read so far is applied, nothing was written, and a later catch-up goes on from there.
   */
  private int catchUpLocked() {
    int[] applied = {0};
    List<Damage> damage = new ArrayList<>();
    try {
      journal.read(
          appliedSeq + 1,
          entry -> {
            stateLock.writeLock().lock();
            try {
              applyReplayed(entry, damage);
              appliedSeq = entry.seq();
              applied[0]++;
            } catch (RuntimeException e) {
              throw new ApplyFailure(e);
            } finally {
              stateLock.writeLock().unlock();
            }
          },
          d -> {
            LOG.log(System.Logger.Level.WARNING, "journal: " + d);
            damage.add(d);
          });
    } catch (ApplyFailure e) {
      throw e.getCause();
    } catch (JournalUnavailableException e) {
      throw e;
    } catch (StorageException e) {
      throw new JournalUnavailableException(
          "cannot read the journal's newer batches: " + e.getMessage(), e);
    } finally {
      if (applied[0] > 0) {
        tellApplied();
        settle();
      }
    }
    return applied[0];
  }

  /** A batch read in a catch-up did not apply: not the journal's failure. */
  private static final class ApplyFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ApplyFailure(RuntimeException cause) {
      super(cause);
    }

    @Override
    public synchronized RuntimeException getCause() {
      return (RuntimeException) super.getCause();
    }
  }

  private void tellApplied() {
    stateLock.writeLock().lock();
    try {
      for (Layer l : layers.values()) {
        l.applied(appliedSeq);
      }
    } finally {
      stateLock.writeLock().unlock();
    }
  }

  private static StorageException stoppedError(LociException f) {
    return new StorageException(
        "writes are stopped after an earlier failure ("
            + f.getMessage()
            + "); acknowledged writes are safe, reopen the data directory to continue",
        f);
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
      throw stoppedError(f);
    }
  }

  /** Runs {@code read} with shared access to the projections. */
  @Override
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
    long events;
    stateLock.readLock().lock();
    try {
      seq = appliedSeq;
      events = eventsSinceSnapshot.get();
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
    eventsSinceSnapshot.addAndGet(-events);
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

  /**
   * Erasure: with every write stopped, rewrites each journal batch through the {@link
   * SubjectRecords#scrub} of the layers named in {@code idsByLayer}, has each of them {@link
   * SubjectRecords#erase} the records from its state and files, then replaces every snapshot by a
   * fresh one of the erased state. Each step is atomic per file and idempotent, so a crash at any
   * point leaves old or new files and running it again completes it.
   *
   * @param idsByLayer record keys ({@code SubjectMention.key}) to erase, by the name of the layer
   *     that holds them
   * @return how many journal batches were rewritten
   * @throws IllegalArgumentException if a named layer holds no subject records
   * @throws StorageException if the journal cannot be rewritten
   * @throws dev.loci.ConflictException if the journal keeps no rewritable batches (PostgreSQL,
   *     which erases with {@link #eraseShared})
   */
  public long eraseRecords(Map<String, Set<String>> idsByLayer) {
    Map<String, SubjectRecords> holders = holders(idsByLayer);
    checkUsable();
    snapshotLock.lock();
    combiner.lock();
    try {
      long rewritten;
      try {
        rewritten = journal.rewrite(tokens(idsByLayer), scrubber(holders, idsByLayer));
      } catch (UnsupportedOperationException e) {
        throw new dev.loci.ConflictException(e.getMessage());
      }
      stateLock.writeLock().lock();
      try {
        holders.forEach((name, r) -> r.erase(idsByLayer.get(name)));
      } finally {
        stateLock.writeLock().unlock();
      }
      snapshotsStale = true;
      replaceSnapshotsLocked();
      return rewritten;
    } finally {
      combiner.unlock();
      snapshotLock.unlock();
      handOver();
    }
  }

  /**
   * Erasure over a journal that other processes share ({@link Journal#rewriteAndAppend}): in one
   * atomic step of the journal, with every writer's appends waiting, catches up with the journal,
   * decides {@code record} (the erasure's own event, which must be an {@link
   * dev.loci.spi.ErasingEvents erasing event} naming {@code idsByLayer}, or nothing if the erasure
   * is already recorded), rewrites each stored batch through the scrub of the layers named in
   * {@code idsByLayer} and appends the decided batch. Then applies it, as every other process does
   * when it reaches it: the layers erase the records from state and files and the snapshots are
   * replaced. A failure leaves the journal as it was.
   *
   * @return how many journal batches were rewritten
   * @throws dev.loci.ConflictException if the journal cannot do this (a file journal: use {@link
   *     #eraseRecords(Map)})
   */
  public <R> long eraseShared(
      Map<String, Set<String>> idsByLayer, Namespace namespace, String actor, Command<R> record) {
    Map<String, SubjectRecords> holders = holders(idsByLayer);
    checkUsable();
    snapshotLock.lock();
    combiner.lock();
    try {
      Batch[] decided = {null};
      Journal.Rewritten done;
      try {
        done =
            journal.rewriteAndAppend(
                tokens(idsByLayer),
                scrubber(holders, idsByLayer),
                head -> {
                  if (head > appliedSeq) {
                    catchUpLocked();
                  }
                  Instant now = Timestamps.truncate(clock.instant());
                  lastNow = now.isBefore(lastNow) ? lastNow : now;
                  Decision<?> d = record.decide(new Context(lastNow, ids));
                  decided[0] =
                      d.events().isEmpty()
                          ? null
                          : new Batch(lastNow, namespace, actor, d.events());
                  return Optional.ofNullable(decided[0]);
                });
      } catch (UnsupportedOperationException e) {
        throw new dev.loci.ConflictException(e.getMessage());
      }
      if (decided[0] != null) {
        JournalEntry entry = JournalEntry.of(done.appended(), decided[0]);
        stateLock.writeLock().lock();
        try {
          prepare(entry).forEach(Runnable::run);
          eventsSinceSnapshot.addAndGet(entry.events().size());
          appliedSeq = entry.seq();
          for (Layer l : layers.values()) {
            l.applied(appliedSeq);
          }
        } finally {
          stateLock.writeLock().unlock();
        }
      }
      replaceSnapshotsLocked();
      return done.batches();
    } finally {
      combiner.unlock();
      snapshotLock.unlock();
      handOver();
    }
  }

  private Map<String, SubjectRecords> holders(Map<String, Set<String>> idsByLayer) {
    Map<String, SubjectRecords> holders = new LinkedHashMap<>();
    idsByLayer.forEach(
        (name, ids) -> {
          if (!(layers.get(name) instanceof SubjectRecords r)) {
            throw new IllegalArgumentException("layer '" + name + "' holds no subject records");
          }
          holders.put(name, r);
        });
    return holders;
  }

  /** The ids of the record keys: what every event that writes one of the records names. */
  private static Set<String> tokens(Map<String, Set<String>> idsByLayer) {
    Set<String> ids = new HashSet<>();
    idsByLayer
        .values()
        .forEach(keys -> keys.forEach(k -> ids.add(k.substring(k.indexOf('/') + 1))));
    return ids;
  }

  /** A batch through each holder's scrub: the scrubbed events, or empty if none changed. */
  private static java.util.function.Function<JournalEntry, Optional<List<Event>>> scrubber(
      Map<String, SubjectRecords> holders, Map<String, Set<String>> idsByLayer) {
    return entry -> {
      List<Event> out = new ArrayList<>(entry.events().size());
      boolean changed = false;
      for (Event e : entry.events()) {
        SubjectRecords r = holders.get(e.layer());
        Event scrubbed = r == null ? e : r.scrub(entry, e, idsByLayer.get(e.layer()));
        changed |= scrubbed != e;
        out.add(scrubbed);
      }
      return changed ? Optional.of(out) : Optional.empty();
    };
  }

  /** The journal the engine writes to. */
  public Journal journal() {
    return journal;
  }

  /**
   * Stops accepting commands, finishes every command already queued (durable and applied), then
   * closes the journal.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    combiner.lock();
    try {
      combine(null);
    } finally {
      combiner.unlock();
      handOver(); // a command queued after the last poll runs (and fails: closed) on its own
    }
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
    try {
      journal.close();
    } catch (RuntimeException e) {
      if (failed == null) {
        throw e;
      }
      failed.addSuppressed(e);
    }
    if (failed != null) {
      throw failed;
    }
  }

  private record Context(Instant now, UuidV7 ids) implements CommandContext {
    @Override
    public String newId() {
      return ids.next(now).toString();
    }
  }
}
