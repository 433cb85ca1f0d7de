package dev.loci.postgres;

/**
 * What the database needs to renumber a journal line without reading it ({@code loci_renumber} in
 * the schema): for each digit of the line's sequence number and each digit value, the CRC-32C
 * contribution of that byte at that place.
 *
 * <p>CRC-32C is linear over GF(2): for two messages of the same length, the checksums differ by the
 * raw CRC register of their difference run from zero. A line renumbered to a number with as many
 * digits differs only in those digits, so its checksum is the old one xor, for each changed digit j
 * from a to c, {@code w[j][a] xor w[j][c]}, where {@code w[j][v]} is the register after the byte
 * {@code '0' + v} followed by the zero bytes up to the end of the checksummed part (as zlib's
 * {@code crc32_combine} shifts a checksum over zeros). Stateless.
 */
final class JournalRenumber {
  /** Where the digits start: after {@code {"seq":}. */
  private static final int DIGITS_AT = 7;

  /** Bytes after the checksummed part: {@code ,"crc32c":"} + 8 hex digits + {@code "}\n}. */
  private static final int SUFFIX = 11 + 8 + 2 + 1;

  private static final int[] TABLE = new int[256];

  static {
    for (int i = 0; i < 256; i++) {
      int c = i;
      for (int k = 0; k < 8; k++) {
        c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
      }
      TABLE[i] = c;
    }
  }

  private JournalRenumber() {}

  /**
   * Appends to {@code w} at {@code at} the ten contributions of each of the {@code digits} digits
   * of {@code line} (a journal line, newline included, whose sequence number has that many digits).
   */
  static void contributions(byte[] line, int digits, Long[] w, int at) {
    int checked = line.length - SUFFIX;
    int zeros = checked - (DIGITS_AT + digits); // after the last digit
    for (int v = 0; v < 10; v++) {
      int r = TABLE['0' + v];
      for (int i = 0; i < zeros; i++) {
        r = TABLE[r & 0xff] ^ (r >>> 8);
      }
      for (int j = digits - 1; j >= 0; j--) {
        w[at + j * 10 + v] = r & 0xffffffffL;
        r = TABLE[r & 0xff] ^ (r >>> 8);
      }
    }
  }

  /** How many digits {@code seq} has. */
  static int digits(long seq) {
    return Long.toString(seq).length();
  }
}
