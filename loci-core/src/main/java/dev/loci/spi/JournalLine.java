package dev.loci.spi;

import dev.loci.internal.JournalLines;
import java.util.HashMap;

/**
 * The journal's line format (DESIGN.md section 4) for journals other than the file journal: one
 * JSON line per batch with its CRC-32C, so that a batch stored elsewhere (a database row) is
 * checked and decoded exactly as a line of a segment file. Stateless and thread-safe.
 */
public final class JournalLine {
  private JournalLine() {}

  /** The line of {@code batch} at sequence number {@code seq}, newline included. */
  public static byte[] encode(long seq, Batch batch) {
    return JournalLines.encode(seq, batch);
  }

  /**
   * Checks the checksum and parses a line (a trailing newline is allowed).
   *
   * @throws IllegalArgumentException saying what is wrong if the checksum fails or the line is not
   *     a well-formed batch
   */
  public static JournalEntry decode(byte[] line) {
    int len = line.length;
    if (len > 0 && line[len - 1] == '\n') {
      len--;
    }
    try {
      return JournalLines.decode(line, 0, len, new HashMap<>());
    } catch (JournalLines.BadLineException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
