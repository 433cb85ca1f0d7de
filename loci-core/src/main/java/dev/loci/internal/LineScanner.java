package dev.loci.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
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
        int nl = -1;
        for (int i = scanFrom; i < end; i++) {
          if (buf[i] == '\n') {
            nl = i;
            break;
          }
        }
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
