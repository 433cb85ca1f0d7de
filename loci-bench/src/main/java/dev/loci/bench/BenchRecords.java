package dev.loci.bench;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The records both sides of a benchmark write: a small JSON object {@code {"note":"<noteBytes
 * characters>","i":N}} with one tag, in namespace {@value #NAMESPACE}.
 *
 * <p>Thread-safe and immutable.
 */
final class BenchRecords {
  /** The namespace every benchmark record lives in. */
  static final String NAMESPACE = "bench.journal";

  /** The scope that holds every benchmark record. */
  static final String SCOPE = "bench.*";

  /** The one tag of every record. */
  static final String TAG = "bench";

  /** {@link #TAG} as a list, for the Loci API. */
  static final List<String> TAGS = List.of(TAG);

  /** {@link #TAGS} as JSON text, for the SQLite peer. */
  static final String TAGS_JSON = "[\"" + TAG + "\"]";

  private static final String TEXT =
      "the user asked for the quarterly summary again and prefers short answers with numbers first; ";

  private final String note;

  BenchRecords(int noteBytes) {
    if (noteBytes < 1) {
      throw new IllegalArgumentException("noteBytes must be at least 1, found " + noteBytes);
    }
    this.note = TEXT.repeat(noteBytes / TEXT.length() + 1).substring(0, noteBytes);
  }

  /** The content of record number {@code i}. */
  String content(long i) {
    return "{\"note\":\"" + note + "\",\"i\":" + i + "}";
  }

  /**
   * A UUID v7 string for {@code now}: 48 bits of Unix milliseconds, then random bits, the same
   * shape as the ids Loci assigns, so both sides index similar keys.
   */
  static String uuidV7(Instant now) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long msb = (now.toEpochMilli() << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
    long lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(msb, lsb).toString();
  }

  /** Microseconds since the epoch, the resolution Loci stores. */
  static long micros(Instant t) {
    return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
  }
}
