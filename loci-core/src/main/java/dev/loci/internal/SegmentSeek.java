package dev.loci.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;

/**
 * Finds where in a journal segment the batches from a sequence number begin, without reading the
 * lines before: a binary search over byte offsets, each probe reading the first whole line after
 * the offset. Lines are in sequence order, so a good line (its checksum matches) below the number
 * means every good line before it is below it too. A probe that lands on a bad line moves the
 * search back, so damage makes the reader start earlier, never later: lines at and after the
 * returned offset are read as before (checked, damage reported), only lines below the number that a
 * snapshot covers are left unread (verification still reads them all). Stateless.
 */
final class SegmentSeek {
  /** Below this many bytes the search stops: reading them costs less than more probes. */
  private static final long CLOSE_ENOUGH = 1 << 20;

  private SegmentSeek() {}

  /**
   * The offset of a line of {@code segment} such that every good line before it holds a batch below
   * {@code fromSeq}: 0, or the start of a good line below {@code fromSeq}.
   */
  static long lineBelow(Path segment, long fromSeq) throws IOException {
    return lineBelow(segment, fromSeq, CLOSE_ENOUGH);
  }

  /** As {@link #lineBelow(Path, long)}, searching until fewer than {@code closeEnough} bytes. */
  static long lineBelow(Path segment, long fromSeq, long closeEnough) throws IOException {
    try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ)) {
      long lo = 0;
      long hi = ch.size();
      byte[] buf = new byte[64 * 1024];
      while (hi - lo > closeEnough) {
        long mid = lo + (hi - lo) / 2;
        Probe p = probe(ch, mid, hi, buf);
        if (p != null && p.seq < fromSeq) {
          lo = p.start;
        } else {
          hi = mid;
        }
        if (p != null) {
          buf = p.buf;
        }
      }
      return lo;
    }
  }

  /**
   * The first line starting after {@code mid} and before {@code hi}, if it is good; null if it is
   * bad, absent or far away.
   */
  private record Probe(long start, long seq, byte[] buf) {}

  private static Probe probe(FileChannel ch, long mid, long hi, byte[] buf) throws IOException {
    // the line containing byte mid - 1 ends at the first newline from there
    long start = -1;
    long at = mid - 1;
    long until = Math.min(hi, at + CLOSE_ENOUGH); // no newline that soon: zeros or a huge line
    while (start < 0 && at < until) {
      int n = read(ch, buf, 0, (int) Math.min(buf.length, until - at), at);
      for (int i = 0; i < n; i++) {
        if (buf[i] == '\n') {
          start = at + i + 1;
          break;
        }
      }
      at += n;
      if (n == 0) {
        break;
      }
    }
    if (start < 0 || start >= hi) {
      return null;
    }
    int len = 0;
    while (true) {
      if (len == buf.length) {
        buf = java.util.Arrays.copyOf(buf, buf.length * 2);
      }
      int n = read(ch, buf, len, buf.length - len, start + len);
      if (n == 0) {
        return null; // the file ends inside the line
      }
      for (int i = len; i < len + n; i++) {
        if (buf[i] == '\n') {
          OptionalLong seq = JournalLines.peekSeq(buf, 0, i);
          return seq.isPresent() && JournalLines.checksumMatches(buf, 0, i)
              ? new Probe(start, seq.getAsLong(), buf)
              : null;
        }
      }
      len += n;
    }
  }

  private static int read(FileChannel ch, byte[] buf, int off, int len, long position)
      throws IOException {
    ByteBuffer b = ByteBuffer.wrap(buf, off, len);
    while (b.hasRemaining()) {
      if (ch.read(b, position + b.position() - off) < 0) {
        break;
      }
    }
    return b.position() - off;
  }
}
