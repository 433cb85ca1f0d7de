package dev.loci.internal;

import dev.loci.Damage;
import dev.loci.Durability;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.JournalUnavailableException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The embedded journal: JSONL segment files named by their first sequence number (20 digits).
 *
 * <p>Design. Appends take {@code writeLock}, get the next sequence number, and write their line
 * with one positional write; on failure the segment is truncated back, so a failed append leaves
 * nothing behind and does not use its number. Durability is separate: under {@code always}, a
 * writer that needs its batch durable takes {@code syncLock}, and whoever holds it fsyncs
 * everything written so far; the writers queued behind it usually find their batch already covered
 * and return without an fsync of their own (group commit). Rolling to a new segment fsyncs the old
 * one first, so durability stays prefix-closed across segments.
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
 *       "disk full" until a later append succeeds or the file system has room again.
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
  private static final Pattern SEGMENT_NAME = Pattern.compile("\\d{20}\\.jsonl");
  private static final int MAX_INTERRUPTED_RETRIES = 10;
  private static final long PREALLOCATE_BYTES = 4L << 20;
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 20).asReadOnlyBuffer();

  private final Path dir;
  private final Durability durability;
  private final long segmentBytes;
  private final List<Damage> openDamage;

  private final ReentrantLock writeLock = new ReentrantLock();
  private final ReentrantLock syncLock = new ReentrantLock();
  private final java.util.concurrent.locks.Condition synced = syncLock.newCondition();
  private boolean syncing; // guarded by syncLock
  private FileChannel channel; // guarded by writeLock
  private Path segment; // guarded by writeLock
  private long segmentSize; // guarded by writeLock: the bytes of lines, without the zero tail
  private long allocated; // guarded by writeLock: the file's size, zero tail included
  private long retryPreallocationAt; // guarded by writeLock: after a failure, wait for growth
  private long lastSeq; // guarded by writeLock
  private volatile long durableSeq;
  private long durableBytes; // guarded by writeLock: the active segment's length durableSeq covers
  private volatile int generation; // bumped by each rollback: an append of an older one was cut
  private volatile String full; // why the last append failed for want of space, until it has room
  private volatile long fullNeeds; // bytes the failed append wanted
  private Forcer forcer = ch -> ch.force(false);
  private final java.util.concurrent.atomic.AtomicLong fsyncs =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile Throwable failure;
  private volatile boolean closed;
  private final ScheduledExecutorService syncer;

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
    this.segment = segment;
    this.channel = channel;
    this.lastSeq = lastSeq;
    this.durableSeq = lastSeq;
    this.openDamage = List.copyOf(openDamage);
    try {
      this.segmentSize = channel.size();
      this.allocated = segmentSize;
      this.durableBytes = segmentSize;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (durability.mode() == Durability.Mode.INTERVAL) {
      syncer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "loci-journal-sync");
                t.setDaemon(true);
                return t;
              });
      long ms = durability.interval().toMillis();
      syncer.scheduleWithFixedDelay(this::backgroundSync, ms, ms, TimeUnit.MILLISECONDS);
    } else {
      syncer = null;
    }
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
      List<Path> segments = segments(dir);
      List<Damage> damage = new ArrayList<>();
      long lastSeq = 0;
      Path active;
      if (segments.isEmpty()) {
        active = dir.resolve(segmentName(1));
        Files.createFile(active);
        Directories.sync(dir);
      } else {
        active = segments.get(segments.size() - 1);
        lastSeq = firstSeq(active) - 1;
        trimZeroTail(active);
        TailState tail = TailState.read(active);
        if (tail.tornAt >= 0) {
          damage.add(
              new Damage(
                  Damage.Kind.TORN_TAIL,
                  active,
                  tail.tornAt,
                  tail.tornSeq,
                  "last "
                      + (tail.tornLines == 1 ? "line" : tail.tornLines + " lines")
                      + " cut short or failing the checksum ("
                      + tail.tornDetail
                      + "); truncated "
                      + (tail.size - tail.tornAt)
                      + " bytes"));
          try (FileChannel ch = FileChannel.open(active, StandardOpenOption.WRITE)) {
            ch.truncate(tail.tornAt);
            ch.force(true);
          }
          LOG.log(System.Logger.Level.WARNING, "journal: " + damage.get(damage.size() - 1));
        }
        lastSeq = Math.max(lastSeq, tail.maxSeq);
        if (tail.maxSeq == 0 && segments.size() > 1) {
          lastSeq = Math.max(lastSeq, lastSeqOf(segments.get(segments.size() - 2)));
        }
      }
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
    return fsyncs.get();
  }

  /** The directory holding the segments. */
  public Path directory() {
    return dir;
  }

  @Override
  public Appended append(Batch batch) {
    String events = JournalLines.encodeEvents(batch.events());
    // An interrupt must not cost the journal its channel (the JDK closes an interruptible channel
    // when a thread blocked in it is interrupted): set it aside while this call does I/O.
    boolean interrupted = Thread.interrupted();
    writeLock.lock();
    try {
      checkUsable();
      long seq = lastSeq + 1;
      byte[] line = JournalLines.encode(seq, batch, events);
      if (segmentSize > 0 && segmentSize + line.length > segmentBytes) {
        rollLocked(seq);
      }
      long before = segmentSize;
      preallocate(before + line.length);
      try {
        writeAt(line, before);
      } catch (IOException e) {
        String detail =
            "journal write to " + segment + " failed: " + e.getMessage() + "; nothing was written";
        try {
          reopenIfClosed(channel);
          channel.truncate(before);
        } catch (IOException cleanup) {
          e.addSuppressed(cleanup);
          failure = e; // a cut-short line is no batch (it fails its checksum): dropped on open
          throw new StorageException(detail, e);
        }
        full = "disk full or failing: " + detail;
        fullNeeds = line.length;
        throw new JournalUnavailableException(detail, e);
      }
      segmentSize = before + line.length;
      allocated = Math.max(allocated, segmentSize);
      lastSeq = seq;
      full = null;
      return new Written(seq, generation);
    } finally {
      writeLock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Writes {@code line} at {@code pos} of the active segment. An interrupt of the calling thread
   * must not cost the journal its channel (the JDK closes an interruptible channel when a thread
   * blocked in it is interrupted): the interrupt status is set aside during the write, and if an
   * interrupt still closes the channel, it is reopened and the positional write repeated. The
   * caller's interrupt status is restored afterwards.
   */
  private void writeAt(byte[] line, long pos) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      for (int attempt = 0; ; attempt++) {
        try {
          ByteBuffer buffer = ByteBuffer.wrap(line);
          long at = pos;
          while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
          }
          return;
        } catch (ClosedChannelException e) {
          // closed by an interrupt of this thread, or earlier by one of another thread
          if (e instanceof ClosedByInterruptException) {
            interrupted = true;
            Thread.interrupted();
          }
          if (attempt >= MAX_INTERRUPTED_RETRIES || closed) {
            throw e;
          }
          reopenIfClosed(channel);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Replaces the active channel if it is {@code broken} and closed; call under writeLock. */
  private void reopenIfClosed(FileChannel broken) throws IOException {
    if (channel == broken && !broken.isOpen() && !closed) {
      channel = FileChannel.open(segment, StandardOpenOption.WRITE);
    }
  }

  /**
   * Makes sure the segment file extends (with zeros) past {@code end}. Writing into space that is
   * already part of the file lets fdatasync skip the file-size update, which on ext4 saves a
   * journal commit on every fsync (measured: about 40% of the fsync's time). Preallocation is best
   * effort: if the disk cannot take a chunk, appends simply grow the file. The zero tail is trimmed
   * on roll, on close and on open, and readers treat it as unwritten space, not damage.
   */
  private void preallocate(long end) {
    if (end <= allocated || end < retryPreallocationAt) {
      return;
    }
    long from = Math.max(allocated, segmentSize); // never write zeros over lines
    long target = end + Math.min(PREALLOCATE_BYTES, segmentBytes);
    try {
      for (long at = from; at < target; ) {
        ByteBuffer zeros = ZEROS.duplicate();
        zeros.limit((int) Math.min(zeros.capacity(), target - at));
        at += channel.write(zeros, at);
      }
      channel.force(true);
      allocated = target;
    } catch (IOException e) {
      try {
        reopenIfClosed(channel);
        channel.truncate(segmentSize);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      allocated = segmentSize;
      retryPreallocationAt = segmentSize + Math.min(PREALLOCATE_BYTES, segmentBytes);
      LOG.log(System.Logger.Level.DEBUG, "journal preallocation failed, appending without: " + e);
    }
  }

  private final class Written implements Appended {
    private final long seq;
    private final int generation;

    Written(long seq, int generation) {
      this.seq = seq;
      this.generation = generation;
    }

    @Override
    public long seq() {
      return seq;
    }

    @Override
    public void awaitDurable() {
      if (durability.mode() == Durability.Mode.ALWAYS) {
        syncThrough(seq, generation);
      } else {
        checkUsable();
      }
    }
  }

  /**
   * Makes every batch up to {@code seq} durable, sharing the fsync with concurrent callers.
   *
   * <p>One caller at a time is the leader: it fsyncs everything written so far without holding
   * {@code syncLock}, then wakes every waiter at once. Waiters whose batch the fsync covered
   * return; one of the rest leads the next fsync, which covers everything appended meanwhile. (A
   * plain lock around the fsync would hand waiters through one at a time, a convoy that keeps
   * groups small.) An fsync cut short by an interrupt closes the channel; it is reopened and the
   * fsync repeated, which flushes the file whichever descriptor wrote it.
   */
  private void syncThrough(long seq, int gen) {
    if (gen == generation && durableSeq >= seq) {
      return;
    }
    boolean interrupted = Thread.interrupted();
    syncLock.lock();
    try {
      int attempts = 0;
      while (durableSeq < seq || gen != generation) {
        if (gen != generation) {
          throw new JournalUnavailableException(
              "journal fsync failed while batch "
                  + seq
                  + " waited for it; the batches written since the last durable one were cut off"
                  + " again, so nothing of it was kept",
              null);
        }
        checkUsable();
        if (syncing) {
          synced.awaitUninterruptibly();
          continue;
        }
        syncing = true;
        syncLock.unlock();
        try {
          interrupted |= forceOnce(seq, gen, attempts++);
        } finally {
          syncLock.lock();
          syncing = false;
          synced.signalAll();
        }
      }
    } finally {
      syncLock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** One fsync by the leader; returns whether an interrupt had to be set aside. */
  private boolean forceOnce(long seq, int gen, int attempt) {
    FileChannel ch;
    long target;
    long bytes;
    Path seg;
    writeLock.lock();
    try {
      if (gen != generation) {
        return false; // cut off by a rollback: the caller's loop reports it
      }
      ch = channel;
      target = lastSeq;
      bytes = segmentSize;
      seg = segment;
    } finally {
      writeLock.unlock();
    }
    try {
      forcer.force(ch);
      fsyncs.incrementAndGet();
      writeLock.lock();
      try {
        if (seg.equals(segment) && gen == generation) {
          durableBytes = Math.max(durableBytes, bytes);
        }
      } finally {
        writeLock.unlock();
      }
      advanceDurable(target);
      return false;
    } catch (ClosedChannelException e) {
      // closed by a roll (which forced it first), by close(), or by an interrupt
      boolean interrupt = e instanceof ClosedByInterruptException;
      if (interrupt) {
        Thread.interrupted();
      }
      if (durableSeq < seq) {
        if (attempt >= MAX_INTERRUPTED_RETRIES) {
          throw failSync(e);
        }
        writeLock.lock();
        try {
          reopenIfClosed(ch);
        } catch (IOException reopen) {
          throw failSync(reopen);
        } finally {
          writeLock.unlock();
        }
      }
      return interrupt;
    } catch (IOException e) {
      throw failSync(e);
    }
  }

  private void backgroundSync() {
    try {
      long target;
      writeLock.lock();
      try {
        target = lastSeq;
      } finally {
        writeLock.unlock();
      }
      if (target > durableSeq && failure == null && !closed) {
        syncThrough(target, generation);
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "journal background fsync failed", e);
    }
  }

  private synchronized void advanceDurable(long seq) {
    if (seq > durableSeq) {
      durableSeq = seq;
    }
  }

  /**
   * What a failed fsync leaves (see the class comment): under {@code always}, the undurable tail
   * cut off and the journal usable ({@link JournalUnavailableException}); otherwise, or if the cut
   * fails, writes stopped with the outcome of the undurable batches unknown.
   */
  private StorageException failSync(IOException e) {
    writeLock.lock();
    try {
      String what = "journal fsync of " + segment + " failed: " + e.getMessage();
      if (durability.mode() == Durability.Mode.ALWAYS && failure == null && rollBackLocked(e)) {
        full = "disk failing: " + what;
        fullNeeds = 0;
        return new JournalUnavailableException(
            what
                + "; the batches written since the last durable one were cut off, so nothing of"
                + " them was kept",
            e);
      }
      failure = e;
      return new StorageException(
          what
              + "; whether the batches since the last durable one are kept is unknown; writes are"
              + " stopped until the journal is resumed or reopened",
          e);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Cuts the active segment back to what the last good fsync covered, through a fresh descriptor,
   * and fsyncs the cut; call under writeLock. Returns false (keeping the cause in {@code e}) if it
   * could not.
   */
  private boolean rollBackLocked(IOException e) {
    try {
      try {
        channel.close();
      } catch (IOException ignored) {
        e.addSuppressed(ignored); // the old descriptor's state is what is not trusted
      }
      channel = FileChannel.open(segment, StandardOpenOption.WRITE);
      channel.truncate(durableBytes);
      forcer.force(channel); // fdatasync: the file's new size is what the data needs
      Directories.sync(dir);
    } catch (IOException cut) {
      e.addSuppressed(cut);
      return false;
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "journal fsync failed ("
            + e.getMessage()
            + "); cut "
            + segment
            + " back to "
            + durableBytes
            + " bytes, batch "
            + durableSeq
            + ", which the last good fsync covered");
    segmentSize = durableBytes;
    allocated = durableBytes;
    retryPreallocationAt = durableBytes + Math.min(PREALLOCATE_BYTES, segmentBytes);
    lastSeq = durableSeq;
    generation++;
    return true;
  }

  /** How the journal fsyncs a segment; a test replaces it to make an fsync fail. */
  @FunctionalInterface
  interface Forcer {
    void force(FileChannel channel) throws IOException;
  }

  /** Replaces how segments are fsynced (fault injection in tests). */
  void forcer(Forcer forcer) {
    this.forcer = java.util.Objects.requireNonNull(forcer, "forcer");
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
    String why = full;
    if (why != null && roomFor(fullNeeds)) {
      full = null;
      return Optional.empty();
    }
    return Optional.ofNullable(why);
  }

  /** Whether the journal's file system has room for {@code bytes} and a margin. */
  private boolean roomFor(long bytes) {
    if (bytes <= 0) {
      return false; // an fsync failed: only a write that succeeds shows the disk is well again
    }
    try {
      return Files.getFileStore(dir).getUsableSpace() >= bytes + (64 << 10);
    } catch (IOException e) {
      return false;
    }
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
      trimPreallocation();
      forcer.force(channel);
      advanceDurable(lastSeq);
      durableBytes = segmentSize;
      channel.close();
      Path next = dir.resolve(segmentName(nextSeq));
      channel = FileChannel.open(next, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      Directories.sync(dir);
      segment = next;
      segmentSize = 0;
      durableBytes = 0;
      allocated = 0;
      retryPreallocationAt = 0;
    } catch (IOException e) {
      failure = e;
      throw new StorageException("journal roll in " + dir + " failed: " + e.getMessage(), e);
    }
  }

  /** Cuts the zero tail off the active segment; call under writeLock. */
  private void trimPreallocation() throws IOException {
    if (allocated > segmentSize) {
      channel.truncate(segmentSize);
      allocated = segmentSize;
    }
  }

  /**
   * Cuts a zero tail, unwritten preallocated space, off a segment file. Zero bytes never occur in a
   * journal line, so none of them is data.
   */
  private static void trimZeroTail(Path file) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = ch.size();
      long end = size;
      ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
      scan:
      while (end > 0) {
        int n = (int) Math.min(buf.capacity(), end);
        buf.clear().limit(n);
        long from = end - n;
        while (buf.hasRemaining()) {
          if (ch.read(buf, from + buf.position()) < 0) {
            break;
          }
        }
        for (int i = n - 1; i >= 0; i--) {
          if (buf.get(i) != 0) {
            end = from + i + 1;
            break scan;
          }
        }
        end = from;
      }
      if (end < size) {
        ch.truncate(end);
        ch.force(true);
      }
    }
  }

  @Override
  public void roll() {
    writeLock.lock();
    try {
      checkUsable();
      if (segmentSize > 0) {
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
      if (segmentSize > 0) {
        rollLocked(lastSeq + 1); // the active segment is then empty and is never rewritten
      }
      // segments are independent: rewrite them on every core (scrub is a pure function)
      List<Path> closed = segments(dir).stream().filter(seg -> !seg.equals(segment)).toList();
      return closed.parallelStream()
          .mapToLong(
              seg -> {
                try {
                  return rewriteSegment(seg, filter, scrub);
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

  /**
   * Rewrites one closed segment through {@code scrub} into a temporary file, forces it and renames
   * it over the segment; returns how many batches changed (0: the segment is left untouched).
   */
  private static long rewriteSegment(
      Path seg, TokenFilter filter, Function<JournalEntry, Optional<List<Event>>> scrub)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Map<String, Namespace> namespaces = JournalLines.namespaceCache();
    long[] changed = {0};
    LineScanner.scan(
        seg,
        (offset, buf, off, len, terminated) -> {
          byte[] line = null;
          // a line that names none of the records is kept byte for byte without decoding
          try {
            JournalEntry entry =
                filter.mayHold(buf, off, len)
                    ? JournalLines.decode(buf, off, len, namespaces)
                    : null;
            Optional<List<Event>> events = entry == null ? Optional.empty() : scrub.apply(entry);
            if (events.isPresent()) {
              Batch b = new Batch(entry.ts(), entry.namespace(), entry.actor(), events.get());
              line = JournalLines.encode(entry.seq(), b, JournalLines.encodeEvents(events.get()));
              changed[0]++;
            }
          } catch (JournalLines.BadLineException e) {
            // kept byte for byte: verify goes on reporting it
          }
          if (line != null) {
            out.write(line, 0, line.length);
          } else {
            out.write(buf, off, len);
            if (terminated) {
              out.write('\n');
            }
          }
        });
    if (changed[0] == 0) {
      return 0;
    }
    Directories.replace(seg, out.toByteArray(), ".rewrite");
    return changed[0];
  }

  @Override
  public void advanceTo(long seq) {
    writeLock.lock();
    try {
      checkUsable();
      if (lastSeq < seq) {
        if (segmentSize > 0 || firstSeq(segment) != seq + 1) {
          rollLocked(seq + 1);
        }
        lastSeq = seq;
        advanceDurable(seq);
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
    syncThrough(lastSeq(), generation);
  }

  @Override
  public void read(long fromSeq, Consumer<JournalEntry> entries, Consumer<Damage> damage) {
    try {
      read(dir, fromSeq, false, entries, damage);
    } catch (IOException e) {
      throw new StorageException("cannot read journal in " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads the segments in {@code dir} without opening them for writing: used by {@link #read} and
   * by verification of a directory another process may hold open.
   *
   * @param fromSeq batches below this are covered elsewhere (a snapshot): a gap below it is not
   *     damage
   * @param everything if true, every line of every segment is checked and every good batch passed
   *     on, even below {@code fromSeq} (verification); if false, segments and lines below {@code
   *     fromSeq} are skipped (opening)
   */
  public static void read(
      Path dir,
      long fromSeq,
      boolean everything,
      Consumer<JournalEntry> entries,
      Consumer<Damage> damage)
      throws IOException {
    List<Path> segments = segments(dir);
    ReadState state = new ReadState(fromSeq, everything, entries, damage);
    for (int i = 0; i < segments.size(); i++) {
      if (!everything && i + 1 < segments.size() && firstSeq(segments.get(i + 1)) <= fromSeq) {
        continue;
      }
      state.file = segments.get(i);
      LineScanner.scan(state.file, state::line);
      state.endOfSegment(i == segments.size() - 1);
    }
  }

  /** Per-read bookkeeping: the last good sequence number and lines awaiting classification. */
  private static final class ReadState {
    private final long fromSeq;
    private final boolean everything;
    private final Consumer<JournalEntry> entries;
    private final Consumer<Damage> damage;
    private final Map<String, Namespace> namespaces = JournalLines.namespaceCache();
    private Path file;
    private long lastGood;
    private long badSinceGood;
    private Damage pendingBad;

    ReadState(
        long fromSeq, boolean everything, Consumer<JournalEntry> entries, Consumer<Damage> damage) {
      this.fromSeq = fromSeq;
      this.everything = everything;
      this.entries = entries;
      this.damage = damage;
    }

    void line(long offset, byte[] buf, int off, int len, boolean terminated) {
      flushBad();
      OptionalLong peeked = JournalLines.peekSeq(buf, off, len);
      if (!everything
          && terminated
          && peeked.isPresent()
          && peeked.getAsLong() < fromSeq
          && JournalLines.checksumMatches(buf, off, len)) {
        return;
      }
      if (!terminated && allZero(buf, off, len)) {
        return; // preallocated space of a live journal, not yet written
      }
      if (!terminated) {
        pendingBad =
            new Damage(
                Damage.Kind.BAD_LINE, file, offset, peeked, "line has no newline: cut short");
        badSinceGood++;
        return;
      }
      try {
        accept(offset, JournalLines.decode(buf, off, len, namespaces));
      } catch (JournalLines.BadLineException e) {
        JournalLines.Salvage salvage = JournalLines.salvage(buf, off, len, namespaces);
        if (salvage.entries().isEmpty()) {
          pendingBad = new Damage(Damage.Kind.BAD_LINE, file, offset, e.seq(), e.getMessage());
          badSinceGood++;
          return;
        }
        damage.accept(
            new Damage(
                Damage.Kind.BAD_LINE,
                file,
                offset,
                e.seq(),
                "line holds "
                    + (salvage.entries().size() + salvage.badParts())
                    + " batches run together (a damaged line break); "
                    + salvage.entries().size()
                    + " recovered, "
                    + salvage.badParts()
                    + " unreadable"));
        badSinceGood += salvage.badParts();
        for (JournalEntry entry : salvage.entries()) {
          accept(offset, entry);
        }
      }
    }

    private void accept(long offset, JournalEntry entry) {
      long seq = entry.seq();
      if (!everything && seq < fromSeq) {
        return;
      }
      if (seq <= lastGood) {
        damage.accept(
            new Damage(
                Damage.Kind.BAD_LINE,
                file,
                offset,
                OptionalLong.of(seq),
                "sequence " + seq + " repeats or goes backwards after " + lastGood + "; skipped"));
        badSinceGood++;
        return;
      }
      // batches missing before this one, not counting those a snapshot covers
      long firstMissing = Math.max(lastGood + 1, fromSeq);
      long missing = seq - firstMissing;
      if (missing > badSinceGood) {
        damage.accept(
            new Damage(
                Damage.Kind.SEQUENCE_GAP,
                file,
                offset,
                OptionalLong.of(seq),
                "batches " + firstMissing + " to " + (seq - 1) + " are missing before this line"));
      }
      lastGood = seq;
      badSinceGood = 0;
      entries.accept(entry);
    }

    private void flushBad() {
      if (pendingBad != null) {
        damage.accept(pendingBad);
        pendingBad = null;
      }
    }

    void endOfSegment(boolean last) {
      if (pendingBad != null && last) {
        Damage d = pendingBad;
        pendingBad =
            new Damage(
                Damage.Kind.TORN_TAIL,
                d.file(),
                d.offset(),
                d.seq(),
                d.detail() + " (last line of the journal: a write cut short, truncated on open)");
      }
      flushBad();
    }
  }

  private static boolean containsZero(byte[] buf, int off, int len) {
    for (int i = off; i < off + len; i++) {
      if (buf[i] == 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean allZero(byte[] buf, int off, int len) {
    for (int i = off; i < off + len; i++) {
      if (buf[i] != 0) {
        return false;
      }
    }
    return true;
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
        if (s.equals(segment) || firstSeq(segments.get(i + 1)) - 1 > seq) {
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
    if (syncer != null) {
      // not shutdownNow: an interrupt would land in the background fsync
      syncer.shutdown();
      try {
        if (!syncer.awaitTermination(10, TimeUnit.SECONDS)) {
          LOG.log(System.Logger.Level.WARNING, "journal background fsync did not stop in 10 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    writeLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      try {
        if (failure == null) {
          trimPreallocation();
          channel.force(false);
          advanceDurable(lastSeq);
        }
        channel.close();
      } catch (IOException e) {
        throw new StorageException("closing journal in " + dir + " failed: " + e.getMessage(), e);
      }
    } finally {
      writeLock.unlock();
    }
  }

  /** The segment files in {@code dir}, oldest first. */
  public static List<Path> segments(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> SEGMENT_NAME.matcher(p.getFileName().toString()).matches())
          .sorted()
          .toList();
    }
  }

  /** The first sequence number a segment file holds, from its name. */
  public static long firstSeq(Path segment) {
    String name = segment.getFileName().toString();
    return Long.parseLong(name.substring(0, 20));
  }

  /** The file name of a segment whose first batch is {@code seq}. */
  public static String segmentName(long seq) {
    return String.format("%020d.jsonl", seq);
  }

  private static long lastSeqOf(Path segment) throws IOException {
    return Math.max(firstSeq(segment) - 1, TailState.read(segment).maxSeq);
  }

  /**
   * What the end of a segment looks like: its highest good sequence number and the torn region, if
   * any. The torn region starts at the first bad line after the last good one and runs to the end
   * of the file: the unsynced tail a crash can leave, as partial lines, zeros, or both. A line that
   * holds a complete batch with a valid checksum (even run together with another) is never part of
   * it, because a cut-short write cannot produce one.
   */
  private static final class TailState {
    long size;
    long maxSeq;
    long tornAt = -1;
    OptionalLong tornSeq = OptionalLong.empty();
    String tornDetail = "";
    int tornLines;

    static TailState read(Path segment) throws IOException {
      TailState t = new TailState();
      t.size = Files.size(segment);
      Map<String, Namespace> namespaces = JournalLines.namespaceCache();
      LineScanner.scan(
          segment,
          (offset, buf, off, len, terminated) -> {
            OptionalLong peek = JournalLines.peekSeq(buf, off, len);
            String problem = null;
            long good = -1;
            if (!terminated) {
              problem = "no newline";
            } else if (JournalLines.checksumMatches(buf, off, len) && peek.isPresent()) {
              good = peek.getAsLong();
              if (offset + len + 1 == t.size) {
                try {
                  JournalLines.decode(buf, off, len, namespaces);
                } catch (JournalLines.BadLineException e) {
                  problem = e.getMessage();
                }
              }
            } else if (containsZero(buf, off, len)) {
              // zeros are space never written: a crash lost these bytes, so whatever follows
              // them in the line was not durable either, even a batch that salvages
              problem = "unwritten (zero) bytes";
            } else {
              JournalLines.Salvage salvage = JournalLines.salvage(buf, off, len, namespaces);
              if (salvage.entries().isEmpty()) {
                problem = "crc32c mismatch";
              } else {
                for (JournalEntry e : salvage.entries()) {
                  good = Math.max(good, e.seq());
                }
              }
            }
            if (problem == null) {
              t.maxSeq = Math.max(t.maxSeq, good);
              t.tornAt = -1;
              t.tornLines = 0;
            } else {
              if (t.tornAt < 0) {
                t.tornAt = offset;
                t.tornSeq = peek;
                t.tornDetail = problem;
              }
              t.tornLines++;
            }
          });
      return t;
    }
  }
}
