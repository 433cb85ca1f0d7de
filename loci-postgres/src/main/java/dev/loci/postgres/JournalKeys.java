package dev.loci.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The keys of a batch as stored in {@code loci_batch.keys}, and the check that lets a refused round
 * be numbered after the batches that took its numbers instead of being decided again.
 *
 * <p>A key is a 64-bit FNV-1a hash of the namespace, a U+0000 and the record id (over their UTF-16
 * code units), so the column is a small {@code bigint[]} whatever the ids hold. Two different keys
 * with the same hash only make a round look conflicting when it is not: it is then decided again,
 * as every refused round was before keys, never the other way round.
 */
final class JournalKeys {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private JournalKeys() {}

  /** The stored keys of a batch in {@code ns} whose decision has {@code keys}; null if none. */
  static long[] hash(String ns, Set<String> keys) {
    if (keys.isEmpty()) {
      return null;
    }
    long[] hashes = new long[keys.size()];
    int i = 0;
    for (String key : keys) {
      hashes[i++] = mix(mix(mix(FNV_OFFSET, ns), "\0"), key);
    }
    Arrays.sort(hashes);
    return hashes;
  }

  private static long mix(long h, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      h = (h ^ (c & 0xff)) * FNV_PRIME;
      h = (h ^ (c >>> 8)) * FNV_PRIME;
    }
    return h;
  }

  /** The keys as a PostgreSQL array literal for a {@code text[]} parameter cast per row. */
  static String literal(long[] hashes) {
    if (hashes == null) {
      return null;
    }
    StringBuilder b = new StringBuilder(hashes.length * 21 + 2).append('{');
    for (int i = 0; i < hashes.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(hashes[i]);
    }
    return b.append('}').toString();
  }

  /**
   * At most this many batches committed after a round's decision point are checked; a round further
   * behind is decided again. The bound also keeps the check an index range scan: on a table
   * PostgreSQL has not analyzed yet (a new journal, for its first minute), an open {@code seq > ?}
   * is estimated at a third of the table and scanned sequentially, the whole table for every moved
   * round.
   */
  static final int WINDOW = 100_000;

  // one index range scan: the batches after the decision point, how many, and whether one conflicts
  private static final String CHECK =
      "SELECT GREATEST((SELECT COALESCE(MAX(seq), 0) FROM loci_batch), j.floor, j.archived),"
          + " j.floor > ? OR j.archived > ?, b.n, b.conflict"
          + " FROM loci_journal j, LATERAL (SELECT COUNT(*) AS n,"
          + " COALESCE(bool_or(keys IS NULL OR keys && ?::bigint[]), false) AS conflict"
          + " FROM loci_batch WHERE seq > ? AND seq <= ?) b"
          + " WHERE j.id = 1";

  /**
   * Where a round decided against the batches through {@code decided} may be numbered from, whose
   * batches hold {@code keys} (every key of the round): the head, if every batch committed after
   * {@code decided} is in the table and none of them shares a key with the round or has none; empty
   * if one does (or was archived or lies below the floor, unseen, or more than {@link #WINDOW}
   * batches were committed since), and the round must be decided again.
   */
  static OptionalLong after(Connection c, long decided, long[] keys) throws SQLException {
    return after(c, decided, keys, WINDOW);
  }

  /** Like {@link #after(Connection, long, long[])}, checking at most {@code window} batches. */
  static OptionalLong after(Connection c, long decided, long[] keys, int window)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(CHECK)) {
      s.setLong(1, decided);
      s.setLong(2, decided);
      s.setObject(3, keys);
      s.setLong(4, decided);
      s.setLong(5, decided + window);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        long head = r.getLong(1);
        boolean unseen = r.getBoolean(2) || r.getLong(3) != head - decided;
        return unseen || r.getBoolean(4) ? OptionalLong.empty() : OptionalLong.of(head);
      }
    }
  }
}
