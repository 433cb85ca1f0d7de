package dev.loci.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.loci.Damage;
import dev.loci.StorageException;
import dev.loci.VerifyReport;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalBehindException;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.JournalLine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * A {@link Journal} whose batches are rows of a PostgreSQL table: the source of truth shared by
 * Loci servers that each keep their own projections (DESIGN.md section 4).
 *
 * <p>Design. Each row holds the batch's sequence number, namespace and its exact file-journal line
 * (JSON with its CRC-32C, {@link JournalLine}), so a row is checked and decoded exactly as a line
 * of a segment file. {@link #append} numbers a batch and keeps it pending in memory; {@link
 * Appended#awaitDurable()} writes every pending batch in one statement (group commit: the engine's
 * round of commands shares one round trip) and returns once PostgreSQL has committed and flushed
 * it, which is this journal's durability whatever {@link dev.loci.Durability} says; while other
 * servers write, the commit does not wait for its flush and the flush is waited for after it, in
 * the same round trip, so the servers' flushes are shared ({@link JournalInsert}). A
 * statement-level trigger sends the notification that wakes the servers following the journal.
 *
 * <p>Gapless across servers. A server numbers its batches after the last one it has applied, and
 * the primary key refuses a number another server used: then nothing of the statement is written. A
 * round appended with keys ({@link #appendBatches(List, List)}) is then numbered after the head and
 * written again if no batch committed since its decision point shares a key with it or has none
 * ({@link JournalKeys}); otherwise, or for a keyless round, {@link JournalBehindException} tells
 * the engine to catch up and decide again. No reader ever sees a hole that a slower writer fills
 * later, because a server can only number batch n + 1 once batch n is committed.
 *
 * <p>A write whose reply is lost (the connection dropped) is resolved before the call returns: a
 * new connection inserts the first batch again in a transaction it rolls back; that insert waits
 * for the lost one to end and fails on the primary key only if it committed. Only if that probe
 * cannot reach the database either does the journal become unusable (reopen it).
 *
 * <p>The schema is created and migrated by Flyway ({@link JournalSchema}, history table {@code
 * loci_schema_history}); a database whose schema is newer than this build knows is refused.
 * Thread-safe.
 */
public final class PostgresJournal implements Journal {
  private final HikariDataSource pool;
  private final String description;
  private final JournalOptions options;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<PendingBatch> pending = new ArrayList<>(); // guarded by lock
  private volatile long lastSeq; // numbered, maybe pending; guarded by lock for writes
  private volatile long durableSeq; // committed in the database
  // every batch through it is flushed in the database: a read of them waits for no flush
  private final AtomicLong flushedSeq = new AtomicLong();
  private volatile boolean closed;
  private volatile long knownHead; // the highest sequence number seen in the database
  private final List<JournalFollower> followers = new CopyOnWriteArrayList<>();
  private final RoundWriter writer; // writes the rounds; keeps availability, failure and counts
  // every handle's awaitDurable: one instance, not one per appended batch
  private final Consumer<PendingBatch.Handle> flusher = this::flushThrough;

  private PostgresJournal(HikariDataSource pool, String description, JournalOptions options) {
    this.pool = pool;
    this.description = description;
    this.options = options;
    this.writer = new RoundWriter(pool, description, options.poolSize());
  }

  /**
   * Connects to the database at {@code url}, creates or migrates the schema, and reads the head.
   *
   * @param url {@code postgresql://[user[:password]@]host[:port]/database[?driver options]} or a
   *     {@code jdbc:postgresql:} URL; driver options (such as {@code sslmode}) pass through
   * @throws IllegalArgumentException naming the URL's form if it is not one of these
   * @throws StorageException if the database cannot be reached or its schema is newer than this
   *     build
   */
  public static PostgresJournal open(String url) {
    return open(PostgresUrl.parse(url));
  }

  /** Like {@link #open(String)}, with the URL already parsed. */
  public static PostgresJournal open(PostgresUrl url) {
    return open(url, JournalOptions.defaults());
  }

  /**
   * Like {@link #open(String)}, with a pool of {@code options.poolSize()} connections and, for a
   * server, its data directory (compactions register its snapshot, which {@link #archive()} needs).
   */
  public static PostgresJournal open(PostgresUrl url, JournalOptions options) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url.jdbcUrl());
    url.user().ifPresent(config::setUsername);
    url.password().ifPresent(config::setPassword);
    config.setMaximumPoolSize(options.poolSize());
    config.setPoolName("loci-journal");
    config.setConnectionTimeout(5_000);
    config.setInitializationFailTimeout(-1);
    HikariDataSource pool = new HikariDataSource(config);
    try {
      JournalSchema.migrate(pool, url.redacted());
      PostgresJournal journal = new PostgresJournal(pool, url.redacted(), options);
      long head = journal.readHead();
      journal.lastSeq = head;
      journal.durableSeq = head;
      return journal;
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  private long readHead() {
    try (Connection c = pool.getConnection()) {
      return JournalSchema.head(c);
    } catch (SQLException e) {
      throw unreachable("read the journal head", e);
    }
  }

  @Override
  public Appended append(Batch batch) {
    return appendBatches(List.of(batch)).get(0);
  }

  /** Numbers every batch (written together at the first {@code awaitDurable}); keyless. */
  @Override
  public List<Appended> appendBatches(List<Batch> batches) {
    return appendBatches(batches, java.util.Collections.nCopies(batches.size(), Set.of()));
  }

  /**
   * Numbers every batch after the last one this journal has seen; they are written together at the
   * first {@code awaitDurable}. If another server took those numbers meanwhile and no batch it (or
   * any other) appended since shares a key with the round being written, the round is renumbered
   * after them and written again, without deciding again ({@link JournalKeys}); a keyless batch in
   * the round, or one in between, makes it a refusal as before.
   */
  @Override
  public List<Appended> appendBatches(List<Batch> batches, List<Set<String>> keys) {
    if (batches.isEmpty()) {
      throw new IllegalArgumentException("batches must hold at least one batch, found none");
    }
    if (keys.size() != batches.size()) {
      throw new IllegalArgumentException(
          "keys must hold one set per batch: " + batches.size() + " batches, " + keys.size());
    }
    lock.lock();
    try {
      checkUsable();
      List<Appended> appended = new ArrayList<>(batches.size());
      for (int i = 0; i < batches.size(); i++) {
        Batch batch = batches.get(i);
        long seq = lastSeq + 1;
        PendingBatch p =
            new PendingBatch(
                batch, JournalKeys.hash(batch.namespace().value(), keys.get(i)), seq, flusher);
        pending.add(p);
        lastSeq = seq;
        appended.add(p.handle);
      }
      return appended;
    } finally {
      lock.unlock();
    }
  }

  private static void committed(List<PendingBatch> group) {
    group.forEach(p -> p.handle.durable = true);
  }

  /**
   * Commits every pending batch if {@code handle}'s is not yet committed. On failure nothing of the
   * pending batches is in the database, they are dropped, their numbers are free again, and every
   * one of their handles throws the same failure.
   */
  private void flushThrough(PendingBatch.Handle handle) {
    if (handle.durable) {
      return;
    }
    lock.lock();
    try {
      if (handle.durable) {
        return;
      }
      if (handle.dropped != null) {
        throw handle.dropped; // another caller's flush wrote its round, and it was refused
      }
      checkUsable();
      if (pending.stream().noneMatch(p -> p.handle == handle)) {
        throw new StorageException("batch " + handle.seq + " was not written to " + description);
      }
      List<PendingBatch> group = List.copyOf(pending);
      pending.clear();
      try {
        writer.commit(group);
        committed(group);
        writer.setUnavailable(Optional.empty());
        durableSeq = group.get(group.size() - 1).seq;
        flushed(durableSeq);
        lastSeq = Math.max(lastSeq, durableSeq); // moved past others' batches: continue after it
      } catch (StorageException e) {
        group.forEach(p -> p.handle.dropped = e);
        lastSeq = durableSeq;
        throw e;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * What this journal's rounds came to since it opened.
   *
   * @param written rounds committed in one statement (a lost reply resolved later is not counted)
   * @param batches the batches of those rounds
   * @param moves rounds numbered after other servers' batches instead of being refused
   * @param refusals rounds refused because others took their numbers: decided again
   */
  public record Rounds(long written, long batches, long moves, long refusals) {
    /** The sum of two journals' counts. */
    public Rounds plus(Rounds o) {
      return new Rounds(
          written + o.written, batches + o.batches, moves + o.moves, refusals + o.refusals);
    }
  }

  /** See {@link Rounds}; for benchmarks and tests. */
  public Rounds rounds() {
    return writer.rounds();
  }

  /** A connection-class failure (SQLSTATE 08..., 57P..) or none at all: the outcome is unknown. */
  static boolean isConnectionLoss(SQLException e) {
    String state = e.getSQLState();
    return state == null || state.startsWith("08") || state.startsWith("57P");
  }

  @Override
  public long lastSeq() {
    return lastSeq;
  }

  @Override
  public Optional<String> unavailable() {
    return writer.unavailable();
  }

  @Override
  public OptionalLong sharedHead() {
    return OptionalLong.of(Math.max(knownHead, durableSeq));
  }

  /**
   * Starts following the batches other servers append: a thread listens for the notification each
   * append sends ({@code LISTEN loci_batch}) and, as the fallback for a lost notification, asks for
   * the head every {@code poll}; whenever the head is past what this journal has seen, it runs
   * {@code onNewBatches} (the engine's catch-up, {@code Loci::tryCatchUp}), again after 1, 2, 4 and
   * then every 8 ms until the journal has seen that head (a busy writer catches up itself before
   * its next round). A lost connection is retried every {@code poll}. Closing the returned handle
   * (or the journal) stops the thread.
   */
  public AutoCloseable follow(Runnable onNewBatches, Duration poll) {
    Objects.requireNonNull(onNewBatches, "onNewBatches");
    if (poll.isNegative() || poll.isZero()) {
      throw new IllegalArgumentException("poll must be positive, found " + poll);
    }
    JournalFollower follower = new JournalFollower(this, onNewBatches, poll);
    followers.add(follower);
    follower.start();
    return follower;
  }

  /**
   * Tests: every append shares flushes (as when other servers write) and runs {@code statement}
   * after its commit to wait for the flush.
   */
  void flushWith(JournalFlush statement) {
    writer.flushWith(statement);
  }

  // what the follower reads and sets

  HikariDataSource pool() {
    return pool;
  }

  String description() {
    return description;
  }

  boolean isClosed() {
    return closed;
  }

  void sawHead(long head) {
    if (head > lastSeq) {
      writer.sawOthers(); // not this journal's own batches: it numbered those
    }
    knownHead = Math.max(knownHead, head);
  }

  void setUnavailable(Optional<String> reason) {
    writer.setUnavailable(reason);
  }

  void unfollow(JournalFollower follower) {
    followers.remove(follower);
  }

  /** The sequence number of the last batch committed to the database by this journal or read. */
  public long durableSeq() {
    return durableSeq;
  }

  @Override
  public void read(long fromSeq, Consumer<JournalEntry> entries, Consumer<Damage> damage) {
    read(fromSeq, Long.MAX_VALUE, entries, damage);
  }

  /**
   * Reads only through {@code throughSeq}: a server whose round was numbered after other servers'
   * batches reads just those, which its own round's flush covered, so it waits for no flush.
   */
  @Override
  public void read(
      long fromSeq, long throughSeq, Consumer<JournalEntry> entries, Consumer<Damage> damage) {
    try {
      long read = JournalRows.read(pool, fromSeq, throughSeq, flushedSeq.get(), entries, damage);
      flushed(read);
      observe(read);
    } catch (SQLException e) {
      throw unreachable("read the journal", e);
    }
  }

  /**
   * Notes that every batch through {@code seq} is flushed: written by a round of this journal,
   * which returned after a flush that covers every batch numbered before it too (each was committed
   * before this journal numbered after it), or read after a flush.
   */
  private void flushed(long seq) {
    flushedSeq.accumulateAndGet(seq, Math::max);
  }

  /**
   * Notes that batches through {@code seq} are in the database (read by this journal's user), so
   * the next append continues after them; ignored while batches of this journal are pending.
   */
  private void observe(long seq) {
    lock.lock();
    try {
      if (pending.isEmpty() && seq > lastSeq) {
        writer.sawOthers();
        lastSeq = seq;
        durableSeq = seq;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Reads every batch of the journal at {@code url} and reports the damage ({@code loci verify
   * --journal}): rows that fail their checksum or do not parse, and missing sequence numbers. The
   * schema is created or migrated first if needed, as on every open; nothing else is written.
   *
   * @return a report with the batch count, no segments and no snapshots (those are local)
   */
  public static VerifyReport verify(PostgresUrl url) {
    try (PostgresJournal journal = open(url)) {
      List<Damage> damage = new ArrayList<>();
      long[] batches = {0};
      journal.read(1, e -> batches[0]++, damage::add);
      return new VerifyReport(0, batches[0], 0, damage);
    }
  }

  @Override
  public void advanceTo(long seq) {
    lock.lock();
    try {
      checkUsable();
      if (seq <= lastSeq) {
        return;
      }
      if (!pending.isEmpty()) {
        throw new IllegalStateException("advanceTo with batches pending");
      }
      try (Connection c = pool.getConnection();
          PreparedStatement s =
              c.prepareStatement(
                  "UPDATE loci_journal SET floor = GREATEST(floor, ?) WHERE id = 1")) {
        s.setLong(1, seq);
        s.executeUpdate();
      } catch (SQLException e) {
        throw unreachable("advance the journal", e);
      }
      lastSeq = seq;
      durableSeq = seq;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Commits the pending batches, if any, without dropping them when that fails: they were numbered
   * by a round still in progress (or never awaited), and only their owner's {@link
   * Appended#awaitDurable()} drops them and frees their numbers, so the owner learns of a refusal
   * and decides again instead of reusing a number it already handed out. A refusal (another server
   * took the numbers) is therefore not this call's failure: nothing it was asked to keep was lost,
   * since refused batches were never acknowledged.
   *
   * @throws StorageException if the database cannot take them (they stay pending)
   */
  @Override
  public void sync() {
    lock.lock();
    try {
      if (pending.isEmpty()) {
        return;
      }
      checkUsable();
      List<PendingBatch> group = List.copyOf(pending);
      try {
        writer.commit(group);
      } catch (JournalBehindException e) {
        return; // the owner's awaitDurable meets the same refusal and decides its round again
      }
      pending.clear();
      committed(group);
      writer.setUnavailable(Optional.empty());
      durableSeq = group.get(group.size() - 1).seq;
      flushed(durableSeq);
      lastSeq = Math.max(lastSeq, durableSeq);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Erasure: one transaction that holds the writers' lock exclusively rewrites the rows the scrub
   * changes and appends the batch {@code then} decides ({@link JournalErasure}); all or nothing.
   */
  @Override
  public Rewritten rewriteAndAppend(
      Set<String> tokens,
      Function<JournalEntry, Optional<List<Event>>> scrub,
      LongFunction<Optional<Batch>> then) {
    lock.lock();
    try {
      checkUsable();
      if (!pending.isEmpty()) {
        throw new IllegalStateException("an erasure while batches are pending");
      }
      Rewritten done = JournalErasure.run(pool, description, tokens, scrub, then);
      if (done.appended() > lastSeq) {
        lastSeq = done.appended();
        durableSeq = done.appended();
      }
      return done;
    } finally {
      lock.unlock();
    }
  }

  /** Nothing to do: the table has no segments. */
  @Override
  public void roll() {}

  /**
   * Deletes nothing and returns 0: the batches are shared with the other servers over the same
   * database, which may still need them to catch up. A journal opened for a server (with its data
   * directory) registers that the server's snapshot covers {@code seq}, so that {@link #archive()}
   * may move what every registered server's snapshot covers.
   */
  @Override
  public int deleteThrough(long seq) {
    options.dataDir().ifPresent(dir -> JournalArchive.register(pool, dir, seq, description));
    return 0;
  }

  /**
   * Moves the batches at or below the lowest snapshot the registered servers hold (each server
   * registers at its compactions) from {@code loci_batch} to {@code loci_batch_archive}, in one
   * transaction; appends wait meanwhile. Reads, {@code verify} and export still see every batch,
   * from both tables; a server that was not registered and is behind catches up from the archive.
   * Moves nothing while no server is registered.
   *
   * @throws StorageException if the database cannot be reached
   */
  public JournalArchive.Report archive() {
    checkUsable();
    return JournalArchive.archive(pool, description);
  }

  /**
   * Forgets a registered server (retired for good), so that its snapshot no longer holds {@link
   * #archive()} back; returns whether it was registered.
   */
  public boolean forgetServer(String id) {
    checkUsable();
    return JournalArchive.forget(pool, id, description);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      for (JournalFollower f : followers) {
        f.close();
      }
      if (writer.failure() == null) {
        sync();
      }
    } finally {
      closed = true;
      pool.close();
    }
  }

  private void checkUsable() {
    if (closed) {
      throw new StorageException("the journal in " + description + " is closed");
    }
    StorageException failure = writer.failure();
    if (failure != null) {
      throw new StorageException(
          "the journal in " + description + " is unusable: " + failure.getMessage(), failure);
    }
  }

  private StorageException unreachable(String what, SQLException e) {
    return new StorageException("cannot " + what + " in " + description + ": " + e.getMessage(), e);
  }

  @Override
  public String toString() {
    return "PostgresJournal[" + description + "]";
  }
}
