package dev.loci.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Reads a file as newline-terminated lines, reporting each line's byte offset, first to last or
 * last to first. Lines of any length are supported; the buffer grows to fit the longest.
 */
public final class LineScanner {
  private LineScanner() {}

  /** Receives lines; the buffer is reused after the call returns. */
  @FunctionalInterface
  public interface Visitor {
    /**
     * Called once per line.
     *
     * @param offset the line's byte offset in the file
     * @param buf the buffer holding the line
     * @param off where the line starts in {@code buf}
     * @param len the line's length, without its newline
     * @param terminated false for a final line with no newline after it
     */
    void line(long offset, byte[] buf, int off, int len, boolean terminated) throws IOException;
  }

  /** Receives lines last first, until it has seen enough. */
  @FunctionalInterface
  public interface BackwardVisitor {
    /**
     * Called once per line, the last line of the file first; the arguments are those of {@link
     * Visitor#line}. Returns whether to go on to the line before.
     */
    boolean line(long offset, byte[] buf, int off, int len, boolean terminated) throws IOException;
  }

  private static final int BACKWARD_CHUNK = 64 * 1024;

  /**
   * Visits the lines of {@code file} from the last to the first, reading only as far back as the
   * visitor goes: what the end of a long file holds costs the end's size, not the file's.
   */
  public static void scanBackward(Path file, BackwardVisitor visitor) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size == 0) {
        return;
      }
      // buf[0] is the file's byte at bufFrom; buf holds the bytes from bufFrom to lineEnd
      byte[] buf = new byte[(int) Math.min(BACKWARD_CHUNK, size)];
      long bufFrom = size - buf.length;
      readFully(ch, buf, 0, buf.length, bufFrom);
      boolean terminated = buf[buf.length - 1] == '\n';
      long lineEnd = terminated ? size - 1 : size; // the line's end, its newline excluded
      while (true) {
        long nl = -1;
        long from = lineEnd - 1; // search for the newline before the line, from here down
        while (nl < 0) {
          for (long i = from; i >= bufFrom; i--) {
            if (buf[(int) (i - bufFrom)] == '\n') {
              nl = i;
              break;
            }
          }
          if (nl >= 0 || bufFrom == 0) {
            break;
          }
          // the line starts before the buffer: read more of the file before it
          from = bufFrom - 1;
          int keep = (int) (lineEnd - bufFrom);
          int more = (int) Math.min(Math.max(BACKWARD_CHUNK, keep), bufFrom);
          byte[] grown = keep + more <= buf.length ? buf : new byte[keep + more];
          System.arraycopy(buf, 0, grown, more, keep);
          buf = grown;
          bufFrom -= more;
          readFully(ch, buf, 0, more, bufFrom);
        }
        long lineStart = nl + 1;
        int off = (int) (lineStart - bufFrom);
        if (!visitor.line(lineStart, buf, off, (int) (lineEnd - lineStart), terminated)
            || lineStart == 0) {
          return;
        }
        lineEnd = nl;
        terminated = true;
      }
    }
  }

  private static void readFully(FileChannel ch, byte[] buf, int off, int len, long position)
      throws IOException {
    ByteBuffer b = ByteBuffer.wrap(buf, off, len);
    while (b.hasRemaining()) {
      if (ch.read(b, position + b.position() - off) < 0) {
        throw new IOException("file shrank while it was read");
      }
    }
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long NEWLINES = ONES * '\n';

  /**
   * Where the first newline of {@code buf} from {@code from} to {@code to} (exclusive) is, or -1;
   * eight bytes at a time (a byte loop was a seventh of the open of a large snapshot). In {@code x}
   * (eight bytes, XORed with newlines), {@code (x - ONES) & ~x & HIGHS} sets the high bit of the
   * lowest zero byte, that is the first newline; bits above it may be set by the borrow, never
   * below.
   */
  static int newline(byte[] buf, int from, int to) {
    int i = from;
    for (; i + Long.BYTES <= to; i += Long.BYTES) {
      long x = (long) LONGS.get(buf, i) ^ NEWLINES;
      long found = (x - ONES) & ~x & HIGHS;
      if (found != 0) {
        return i + (Long.numberOfTrailingZeros(found) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (buf[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** Visits every line of {@code file} in order. */
  public static void scan(Path file, Visitor visitor) throws IOException {
    scan(file, 0, visitor);
  }

  /** Visits the lines of {@code file} in order from byte {@code from}, which starts a line. */
  public static void scan(Path file, long from, Visitor visitor) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      in.skipNBytes(from);
      byte[] buf = new byte[256 * 1024];
      int start = 0;
      int end = 0;
      int scanFrom = 0;
      long bufOffset = from;
      while (true) {
        int nl = newline(buf, scanFrom, end);
        if (nl >= 0) {
          visitor.line(bufOffset + start, buf, start, nl - start, true);
          start = nl + 1;
          scanFrom = start;
          continue;
        }
        scanFrom = end;
        if (start > 0) {
          System.arraycopy(buf, start, buf, 0, end - start);
          bufOffset += start;
          end -= start;
          scanFrom -= start;
          start = 0;
        }
        if (end == buf.length) {
          buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int n = in.read(buf, end, buf.length - end);
        if (n < 0) {
          if (end > start) {
            visitor.line(bufOffset + start, buf, start, end - start, false);
          }
          return;
        }
        end += n;
      }
    }
  }
}
