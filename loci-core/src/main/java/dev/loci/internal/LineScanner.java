package dev.loci.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a file as newline-terminated lines, reporting each line's byte offset. Lines of any length
 * are supported; the buffer grows to fit the longest.
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

  /** Visits every line of {@code file} in order. */
  public static void scan(Path file, Visitor visitor) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buf = new byte[256 * 1024];
      int start = 0;
      int end = 0;
      int scanFrom = 0;
      long bufOffset = 0;
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
