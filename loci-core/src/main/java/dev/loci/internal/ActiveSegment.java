package dev.loci.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The segment a {@link FileJournal} appends to: its file and channel, how many bytes of lines it
 * holds, how far it is preallocated with zeros, and how much of it the last good fsync covered;
 * positional writes that survive an interrupt, preallocation, rolling to the next segment file and
 * cutting back to the last good fsync. Not thread-safe: the journal (and its {@link GroupCommit})
 * reads and changes every field under the journal's write lock (rolls and rollbacks replace the
 * file).
 */
final class ActiveSegment {
  static final int MAX_INTERRUPTED_RETRIES = 10;
  static final long PREALLOCATE_BYTES = 4L << 20;

  private static final System.Logger LOG = System.getLogger(FileJournal.class.getName());
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 20).asReadOnlyBuffer();

  private final Path dir;
  private final long segmentBytes;
  FileChannel channel;
  Path segment;
  long segmentSize; // the bytes of lines, without the zero tail
  long allocated; // the file's size, zero tail included
  long retryPreallocationAt; // after a failed preallocation, wait for this much growth
  long durableBytes; // the length the journal's durable sequence covers
  boolean closed; // the journal is closed: a closed channel is not reopened

  ActiveSegment(Path dir, Path segment, FileChannel channel, long segmentBytes) throws IOException {
    this.dir = dir;
    this.segment = segment;
    this.channel = channel;
    this.segmentBytes = segmentBytes;
    this.segmentSize = channel.size();
    this.allocated = segmentSize;
    this.durableBytes = segmentSize;
  }

  /**
   * Writes {@code lines} (from its position to its limit) at {@code pos} of the active segment. An
   * interrupt of the calling thread must not cost the journal its channel (the JDK closes an
   * interruptible channel when a thread blocked in it is interrupted): the interrupt status is set
   * aside during the write, and if an interrupt still closes the channel, it is reopened and the
   * positional write repeated. The caller's interrupt status is restored afterwards.
   */
  void writeAt(ByteBuffer lines, long pos) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      for (int attempt = 0; ; attempt++) {
        try {
          ByteBuffer buffer = lines.duplicate();
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

  /**
   * Replaces the active channel if it is {@code broken} and closed; call under the journal's write
   * lock.
   */
  void reopenIfClosed(FileChannel broken) throws IOException {
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
  void preallocate(long end) {
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

  /** Cuts the zero tail off the active segment; call under the journal's write lock. */
  void trimPreallocation() throws IOException {
    if (allocated > segmentSize) {
      channel.truncate(segmentSize);
      allocated = segmentSize;
    }
  }

  /**
   * Closes this segment, which the caller has just fsynced whole, and makes the new, empty file
   * {@code next} (in the journal's directory) the active segment; call under the journal's write
   * lock.
   */
  void rollTo(Path next) throws IOException {
    durableBytes = segmentSize;
    channel.close();
    channel = FileChannel.open(next, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    Directories.sync(dir);
    segment = next;
    segmentSize = 0;
    durableBytes = 0;
    allocated = 0;
    retryPreallocationAt = 0;
  }

  /**
   * Cuts the segment back to what the last good fsync covered, through a fresh descriptor, and
   * fsyncs the cut with {@code forcer}; call under the journal's write lock. Returns false (keeping
   * the cause in {@code e}) if it could not.
   */
  boolean cutBackToDurable(IOException e, GroupCommit.Forcer forcer) {
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
    segmentSize = durableBytes;
    allocated = durableBytes;
    retryPreallocationAt = durableBytes + Math.min(PREALLOCATE_BYTES, segmentBytes);
    return true;
  }
}
