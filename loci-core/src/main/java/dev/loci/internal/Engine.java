package dev.loci.internal;

import dev.loci.ConflictException;
import dev.loci.Damage;
import dev.loci.LociException;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.spi.AppendListener;
import dev.loci.spi.Batch;
import dev.loci.spi.Command;
import dev.loci.spi.CommandExecutor;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SubjectRecords;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
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
  private final Projections state;
  private final Snapshots snapshots;
  private final WriteCombiner writes;
  private final List<Damage> openDamage;

  private Engine(
      Journal journal,
      Optional<SnapshotStore> snapshots,
      List<Layer> layers,
      Clock clock,
      List<Damage> openDamage) {
    this.journal = journal;
    AtomicBoolean snapshotsStale = new AtomicBoolean();
    this.state = new Projections(layers, snapshotsStale);
    this.snapshots = new Snapshots(snapshots, state, journal, clock, snapshotsStale);
    this.writes = new WriteCombiner(journal, state, this.snapshots, clock);
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
    state.beginRecovery();
    long fromSnapshot = snapshots.restoreNewest(damage);
    long[] last = {fromSnapshot};
    journal.read(
        fromSnapshot + 1,
        entry -> {
          state.applyReplayed(entry, damage);
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
    if (state.endRecovery(Math.max(journal.lastSeq(), last[0]))) {
      snapshots.replaceIfStale();
    }
  }

  /** Tells {@code listener} about every group of batches appended from now on. */
  public void listen(AppendListener listener) {
    writes.listen(listener);
  }

  /** Damage found and repaired while opening. */
  public List<Damage> openDamage() {
    return List.copyOf(openDamage);
  }

  /** The sequence number of the last batch applied to the projections. */
  public long appliedSeq() {
    return state.appliedSeq();
  }

  /**
   * Why writes cannot be taken now, if they cannot: writes stopped after a failure, or what the
   * journal reports ({@link Journal#unavailable()}: a disk that is full, a database that cannot be
   * reached).
   */
  public Optional<String> unavailable() {
    return writes.unavailable();
  }

  /**
   * Takes writes again after a journal failure that stopped them, if the journal can do so exactly
   * (see {@link Journal#resume()}); a failure to apply a durable batch is not resumed (the
   * projections may differ from the journal: reopen). Returns why writes are still refused, if they
   * are. Also tried on its own, at most once a second, by writes that find writes stopped.
   */
  public Optional<String> resume() {
    return writes.resume();
  }

  /** What the journal knows of its shared head; see {@link Journal#sharedHead()}. */
  public OptionalLong sharedHead() {
    return journal.sharedHead();
  }

  /** The sequence number of the snapshot the engine opened from or last wrote, 0 if none. */
  public long snapshotSeq() {
    return snapshots.seq();
  }

  /**
   * How many events were applied (written or replayed on open) since the newest snapshot was taken,
   * or since open if none was: roughly what the next open would replay.
   */
  public long eventsSinceSnapshot() {
    return state.eventsSinceSnapshot();
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
    return writes.execute(namespace, actor, command);
  }

  /**
   * Applies the batches that other writers appended to a shared journal since the last one this
   * engine applied (cluster mode: each server tails the database). Waits for a round in progress;
   * writes queued meanwhile run after. Returns how many batches were applied.
   *
   * @throws StorageException if the journal cannot be read or writes are stopped
   */
  public int catchUp() {
    return writes.catchUp();
  }

  /**
   * Like {@link #catchUp()} unless a round of writes is in progress, which catches up before it
   * decides; returns -1 then, and the caller tries again later if the round did not cover what it
   * wanted applied.
   */
  public int tryCatchUp() {
    return writes.tryCatchUp();
  }

  /** Runs {@code read} with shared access to the projections. */
  @Override
  public <R> R read(Supplier<R> read) {
    return state.read(read);
  }

  /**
   * Writes a snapshot of every layer at the current applied sequence and returns that sequence.
   *
   * @throws IllegalStateException if the engine has no snapshot store
   */
  public long snapshot() {
    return snapshots.take();
  }

  /**
   * Snapshots, then deletes journal segments and snapshots the new snapshot makes redundant.
   *
   * @return the snapshot's sequence number and how many segments were deleted
   */
  public long[] compact() {
    return snapshots.compact();
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
   * @throws ConflictException if the journal keeps no rewritable batches (PostgreSQL, which erases
   *     with {@link #eraseShared})
   */
  public long eraseRecords(Map<String, Set<String>> idsByLayer) {
    Map<String, SubjectRecords> holders = holders(idsByLayer);
    writes.checkUsable();
    return snapshots.locked(
        () ->
            writes.exclusively(
                () -> {
                  long rewritten;
                  try {
                    rewritten = journal.rewrite(tokens(idsByLayer), scrubber(holders, idsByLayer));
                  } catch (UnsupportedOperationException e) {
                    throw new ConflictException(e.getMessage());
                  }
                  state.erase(holders, idsByLayer);
                  snapshots.replaceIfStaleLocked();
                  return rewritten;
                }));
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
   * @throws ConflictException if the journal cannot do this (a file journal: use {@link
   *     #eraseRecords(Map)})
   */
  public <R> long eraseShared(
      Map<String, Set<String>> idsByLayer, Namespace namespace, String actor, Command<R> record) {
    Map<String, SubjectRecords> holders = holders(idsByLayer);
    writes.checkUsable();
    return snapshots.locked(
        () ->
            writes.exclusively(
                () -> {
                  List<Batch> decided = new ArrayList<>(1);
                  Journal.Rewritten done;
                  try {
                    done =
                        journal.rewriteAndAppend(
                            tokens(idsByLayer),
                            scrubber(holders, idsByLayer),
                            head -> {
                              decided.clear();
                              Optional<Batch> batch =
                                  writes.decideAlone(head, namespace, actor, record);
                              batch.ifPresent(decided::add);
                              return batch;
                            });
                  } catch (UnsupportedOperationException e) {
                    throw new ConflictException(e.getMessage());
                  }
                  if (!decided.isEmpty()) {
                    state.applyDurable(List.of(JournalEntry.of(done.appended(), decided.get(0))));
                  }
                  snapshots.replaceIfStaleLocked();
                  return done.batches();
                }));
  }

  private Map<String, SubjectRecords> holders(Map<String, Set<String>> idsByLayer) {
    Map<String, SubjectRecords> holders = new LinkedHashMap<>();
    idsByLayer.forEach(
        (name, ids) -> {
          if (!(state.layers().get(name) instanceof SubjectRecords r)) {
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
  private static Function<JournalEntry, Optional<List<Event>>> scrubber(
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
    if (!writes.close()) {
      return;
    }
    RuntimeException failed = null;
    try {
      state.close();
    } catch (RuntimeException e) {
      failed = e;
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
}
