package dev.loci.internal;

import dev.loci.Damage;
import dev.loci.Durability;
import dev.loci.StorageException;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.JournalUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The embedded journal: JSONL segment files named by their first sequence number (20 digits).
 *
 * <p>Design. Appends take {@code writeLock}, get the next sequence numbers, and write their lines
 * (one, or a round's worth through {@link #appendBatches}) with one positional write; on failure
 * the segment is truncated back, so a failed append leaves nothing behind and does not use its
 * numbers. Reading and damage reports are in {@link JournalReader}; segment files at rest (names,
 * tail recovery on open, rewriting a closed segment) in {@link JournalSegments}; the active
 * segment's file, its roll and its cut-back in {@link ActiveSegment}. Durability is separate, in
 * {@link GroupCommit}: under {@code always}, a writer that needs its batch durable takes its sync
 * lock, and whoever holds it fsyncs everything written so far; the writers queued behind it usually
 * find their batch already covered and return without an fsync of their own (group commit). Rolling
 * to a new segment fsyncs the old one first, so durability stays prefix-closed across segments.
 *
 * <p>Opening repairs a torn tail: if the last line of the last segment is cut short or fails its
 * checksum, the file is truncated to the start of that line and a {@link Damage.Kind#TORN_TAIL}
 * warning is kept in {@link #openDamage()}. Every other bad line is left in place and reported,
 * with file, offset and sequence, by {@link #read}.
 *
 * <p>Full disk and failed fsyncs (the outcome of every write is exact: a batch whose append or
 * durability wait failed is never readable after a restart, so a client that retries makes no
 * duplicate).
 *
 * <ul>
 *   <li>A write that fails (the disk is full) is truncated away; the append throws {@link
 *       JournalUnavailableException}, the journal stays usable, and {@link #unavailable()} says
 *       "disk full" until a later append succeeds or the file system has room again ({@link
 *       DiskRoom}).
 *   <li>After a failed fsync the file's state is unknown: the kernel may have dropped the dirty
 *       pages (Linux marks them clean and reports the error once), so what a read shows may not be
 *       on disk, and a retried fsync would succeed without writing them. Nothing written since the
 *       last successful fsync is therefore trusted. Under {@code always} none of it was
 *       acknowledged (acknowledging waits for the fsync), so the segment is reopened through a
 *       fresh descriptor, truncated to the length the last good fsync covered, and that truncation
 *       is fsynced; only then are the waiting writers told that nothing of their batches was kept
 *       ({@link JournalUnavailableException}), and the journal takes writes again. If the rollback
 *       itself fails, the outcome is unknown: the writers are told so, writes stop, and {@link
 *       #resume()} retries the rollback. Under {@code interval} and {@code none}, batches were
 *       acknowledged before their fsync and cannot be cut off: writes stop until reopen.
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class FileJournal implements Journal {
  /** Segments roll once they would grow past this size. */
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

  private static final System.Logger LOG = System.getLogger(FileJournal.class.getName());
  private static final long MAX_GATHERED_BYTES = 16L << 20; // one write of several batches

  private final Path dir;
  private final Durability durability;
  private final long segmentBytes;
  private final List<Damage> openDamage;

  private final ReentrantLock writeLock = new ReentrantLock();
  private final ActiveSegment active; // its fields guarded by writeLock
  private final LineBuffer lines = new LineBuffer(64 << 10); // guarded by writeLock
  private long lastSeq; // guarded by writeLock
  private volatile int generation; // bumped by each rollback: an append of an older one was cut
  private final DiskRoom room;
  private volatile Throwable failure;
  private volatile boolean closed;
  private final GroupCommit commit; // the durable sequence number, fsyncs and their locking

  private FileJournal(
      Path dir,
      Durability durability,
      long segmentBytes,
      Path segment,
      FileChannel channel,
      long lastSeq,
      List<Damage> openDamage) {
    this.dir = dir;
    this.durability = durability;
    this.segmentBytes = segmentBytes;
    this.lastSeq = lastSeq;
    this.openDamage = List.copyOf(openDamage);
    this.room = new DiskRoom(dir);
    try {
      this.active = new ActiveSegment(dir, segment, channel, segmentBytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.commit = new GroupCommit(new CommitLog(), writeLock, active, durability, lastSeq);
    commit.start(); // last: the background fsync (under interval) may run from here on
  }

  /**
   * Opens the journal in {@code dir}, creating it if missing and repairing a torn tail.
   *
   * @throws StorageException if the directory cannot be read or written
   */
  public static FileJournal open(Path dir, Durability durability, long segmentBytes) {
    if (segmentBytes < 1024) {
      throw new IllegalArgumentException(
          "segment size must be at least 1024 bytes, found " + segmentBytes);
    }
    try {
      Directories.create(dir);
      List<Damage> damage = new ArrayList<>();
      JournalSegments.Recovered tail = JournalSegments.recover(dir, damage);
      Path active = tail.active();
      long lastSeq = tail.lastSeq();
      FileChannel ch = FileChannel.open(active, StandardOpenOption.WRITE);
      ch.position(ch.size());
      return new FileJournal(dir, durability, segmentBytes, active, ch, lastSeq, damage);
    } catch (IOException e) {
      throw new StorageException("cannot open journal in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** Problems repaired while opening: at most one torn tail. */
  public List<Damage> openDamage() {
    return openDamage;
  }

  /** How many fsyncs the write path has issued; with group commit, fewer than durable appends. */
  public long fsyncCount() {
    return commit.fsyncCount();
  }

  /** The directory holding the segments. */
  public Path directory() {
    return dir;
  }

  @Override
  public Appended append(Batch batch) {
    return appendBatches(List.of(batch)).get(0);
  }

  /**
   * Writes the leading batches of {@code batches} that fit in the active segment (at least the
   * first, after a roll if need be) with one positional write, so that a round of the engine costs
   * one system call however many batches it holds. A write that fails is truncated away: none of
   * this call's batches is written and none of their numbers used.
   */
  @Override
  public List<Appended> appendBatches(List<Batch> batches) {
    if (batches.isEmpty()) {
      throw new IllegalArgumentException("batches must hold at least one batch, found none");
    }
    // An interrupt must not cost the journal its channel (the JDK closes an interruptible channel
    // when a thread blocked in it is interrupted): set it aside while this call does I/O.
    boolean interrupted = Thread.interrupted();
    writeLock.lock();
    try {
      checkUsable();
      long seq = lastSeq + 1;
      LineBuffer out = lines;
      out.clear();
      int count = 0;
      for (Batch batch : batches) {
        int start = out.size();
        JournalLines.encode(out, seq + count, batch);
        long length = out.size() - start;
        if (count == 0) {
          if (active.segmentSize > 0 && active.segmentSize + length > segmentBytes) {
            rollLocked(seq);
          }
        } else if (active.segmentSize + out.size() > segmentBytes
            || out.size() > MAX_GATHERED_BYTES) {
          out.truncate(start); // the rest goes in the caller's next call (or the next segment)
          break;
        }
        count++;
      }
      long total = out.size();
      long before = active.segmentSize;
      active.preallocate(before + total);
      try {
        active.writeAt(out.view(), before);
      } catch (IOException e) {
        String detail =
            "journal write to "
                + active.segment
                + " failed: "
                + e.getMessage()
                + "; nothing was written";
        try {
          active.reopenIfClosed(active.channel);
          active.channel.truncate(before);
        } catch (IOException cleanup) {
          e.addSuppressed(cleanup);
          failure = e; // a cut-short line is no batch (it fails its checksum): dropped on open
          if (count > 1) {
            // but the whole lines before it, if the write got that far, are batches: their outcome
            // is unknown until resume() cuts back to the last fsync, or a reopen reads them
            throw new StorageException(
                "journal write to "
                    + active.segment
                    + " failed: "
                    + e.getMessage()
                    + "; it could not be cut back, so whether the first of these "
                    + count
                    + " batches are kept is unknown; writes are stopped until the journal is"
                    + " resumed or reopened",
                e);
          }
          throw new StorageException(detail, e);
        }
        room.refused("disk full or failing: " + detail, total);
        throw new JournalUnavailableException(detail, e);
      }
      active.segmentSize = before + total;
      active.allocated = Math.max(active.allocated, active.segmentSize);
      lastSeq = seq + count - 1;
      room.clear();
      out.clear();
      List<Appended> written = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        written.add(commit.appended(seq + i, generation));
      }
      return written;
    } finally {
      writeLock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The journal as its {@link GroupCommit} sees it. */
  private final class CommitLog implements GroupCommit.Log {
    @Override
    public int generation() {
      return generation;
    }

    @Override
    public long lastSeqLocked() {
      return lastSeq;
    }

    @Override
    public void checkUsable() {
      FileJournal.this.checkUsable();
    }

    @Override
    public boolean stopped() {
      return failure != null || closed;
    }

    /**
     * What a failed fsync leaves (see the {@link FileJournal} class comment): under {@code always},
     * the undurable tail cut off and the journal usable ({@link JournalUnavailableException});
     * otherwise, or if the cut fails, writes stopped with the outcome of the undurable batches
     * unknown.
     */
    @Override
    public StorageException failSync(IOException e) {
      writeLock.lock();
      try {
        String what = "journal fsync of " + active.segment + " failed: " + e.getMessage();
        if (durability.mode() == Durability.Mode.ALWAYS && failure == null && rollBackLocked(e)) {
          room.refused("disk failing: " + what, 0);
          return new JournalUnavailableException(
              what
                  + "; the batches written since the last durable one were cut off, so nothing of"
                  + " them was kept",
              e);
        }
        failure = e;
        return new StorageException(
            what
                + "; whether the batches since the last durable one are kept is unknown; writes"
                + " are stopped until the journal is resumed or reopened",
            e);
      } finally {
        writeLock.unlock();
      }
    }
  }

  /**
   * Cuts the active segment back to what the last good fsync covered ({@link
   * ActiveSegment#cutBackToDurable}), and the sequence numbers with it; call under writeLock.
   * Returns false (keeping the cause in {@code e}) if it could not.
   */
  private boolean rollBackLocked(IOException e) {
    if (!active.cutBackToDurable(e, commit.forcer())) {
      return false;
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "journal fsync failed ("
            + e.getMessage()
            + "); cut "
            + active.segment
            + " back to "
            + active.durableBytes
            + " bytes, batch "
            + commit.durableSeq()
            + ", which the last good fsync covered");
    lastSeq = commit.durableSeq();
    generation++;
    return true;
  }

  /** Replaces how segments are fsynced (fault injection in tests). */
  void forcer(GroupCommit.Forcer forcer) {
    commit.forcer(forcer);
  }

  /**
   * Why the journal cannot take writes: its last append found the disk full (until the file system
   * has room for it again or an append succeeds), or it failed in a way that stopped writes.
   */
  @Override
  public Optional<String> unavailable() {
    Throwable f = failure;
    if (f != null && !closed) {
      return Optional.of(
          "journal in " + dir + " failed (" + f.getMessage() + "); writes are stopped");
    }
    return room.why();
  }

  /**
   * Takes writes again after a failure that stopped them, if that can be done exactly: under {@code
   * always}, cuts the unsynced tail off as a failed fsync does (what was written after the last
   * good fsync was never acknowledged). Returns why writes are still refused, if they are.
   */
  @Override
  public Optional<String> resume() {
    writeLock.lock();
    try {
      Throwable f = failure;
      if (f instanceof IOException io
          && !closed
          && durability.mode() == Durability.Mode.ALWAYS
          && rollBackLocked(io)) {
        failure = null;
      }
    } finally {
      writeLock.unlock();
    }
    return unavailable();
  }

  private void checkUsable() {
    if (closed) {
      throw new StorageException("journal in " + dir + " is closed");
    }
    Throwable f = failure;
    if (f != null) {
      throw new StorageException(
          "journal in "
              + dir
              + " failed earlier ("
              + f.getMessage()
              + "); acknowledged writes are safe, reopen the data directory to continue",
          f);
    }
  }

  private void rollLocked(long nextSeq) {
    try {
      active.trimPreallocation();
      commit.forcer().force(active.channel);
      // durable before the switch: a roll that fails after this fsync still counts it
      commit.advanceDurable(lastSeq);
      active.rollTo(dir.resolve(segmentName(nextSeq)));
    } catch (IOException e) {
      failure = e;
      throw new StorageException("journal roll in " + dir + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void roll() {
    writeLock.lock();
    try {
      checkUsable();
      if (active.segmentSize > 0) {
        rollLocked(lastSeq + 1);
      }
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public long rewrite(Set<String> tokens, Function<JournalEntry, Optional<List<Event>>> scrub) {
    TokenFilter filter = TokenFilter.of(tokens);
    writeLock.lock();
    try {
      checkUsable();
      if (active.segmentSize > 0) {
        rollLocked(lastSeq + 1); // the active segment is then empty and is never rewritten
      }
      // segments are independent: rewrite them on every core (scrub is a pure function)
      List<Path> closed =
          segments(dir).stream().filter(seg -> !seg.equals(active.segment)).toList();
      return closed.parallelStream()
          .mapToLong(
              seg -> {
                try {
                  return JournalSegments.rewriteSegment(seg, filter, scrub);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sum();
    } catch (IOException | UncheckedIOException e) {
      throw new StorageException("journal rewrite in " + dir + " failed: " + e.getMessage(), e);
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public void advanceTo(long seq) {
    writeLock.lock();
    try {
      checkUsable();
      if (lastSeq < seq) {
        if (active.segmentSize > 0 || firstSeq(active.segment) != seq + 1) {
          rollLocked(seq + 1);
        }
        lastSeq = seq;
        commit.advanceDurable(seq);
      }
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public long lastSeq() {
    writeLock.lock();
    try {
      return lastSeq;
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public void sync() {
    commit.syncThrough(lastSeq(), generation);
  }

  @Override
  public void read(long fromSeq, Consumer<JournalEntry> entries, Consumer<Damage> damage) {
    try {
      read(dir, fromSeq, false, entries, damage);
    } catch (IOException e) {
      throw new StorageException("cannot read journal in " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public int deleteThrough(long seq) {
    writeLock.lock();
    try {
      checkUsable();
      List<Path> segments = segments(dir);
      int deleted = 0;
      for (int i = 0; i + 1 < segments.size(); i++) {
        Path s = segments.get(i);
        if (s.equals(active.segment) || firstSeq(segments.get(i + 1)) - 1 > seq) {
          break;
        }
        Files.delete(s);
        deleted++;
      }
      if (deleted > 0) {
        Directories.sync(dir);
      }
      return deleted;
    } catch (IOException e) {
      throw new StorageException("cannot delete old segments in " + dir + ": " + e.getMessage(), e);
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    commit.stop();
    writeLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      active.closed = true;
      try {
        if (failure == null) {
          active.trimPreallocation();
          active.channel.force(false);
          commit.advanceDurable(lastSeq);
        }
        active.channel.close();
      } catch (IOException e) {
        throw new StorageException("closing journal in " + dir + " failed: " + e.getMessage(), e);
      }
    } finally {
      writeLock.unlock();
    }
  }

  /** The segment files in {@code dir}, oldest first. */
  public static List<Path> segments(Path dir) throws IOException {
    return JournalSegments.segments(dir);
  }

  /** The first sequence number a segment file holds, from its name. */
  public static long firstSeq(Path segment) {
    return JournalSegments.firstSeq(segment);
  }

  /** The file name of a segment whose first batch is {@code seq}. */
  public static String segmentName(long seq) {
    return JournalSegments.segmentName(seq);
  }

  /** See {@link JournalReader#read}: reads without opening the segments for writing. */
  public static void read(
      Path dir,
      long fromSeq,
      boolean everything,
      Consumer<JournalEntry> entries,
      Consumer<Damage> damage)
      throws IOException {
    JournalReader.read(dir, fromSeq, everything, entries, damage);
  }
}
