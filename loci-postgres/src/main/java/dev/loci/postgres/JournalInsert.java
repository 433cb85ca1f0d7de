package dev.loci.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

/**
 * The append's round trip: a group of batches inserted by one statement, in one of two ways.
 *
 * <ul>
 *   <li><b>Alone</b> (no other server seen writing lately): in autocommit, one implicit transaction
 *       that commits synchronously, as a single client's insert does. While it waits for its WAL
 *       flush it holds the primary key's row locks, so a next commit with the next numbers waits
 *       for that flush: fine while nobody else writes.
 *   <li><b>Shared</b> (other servers write): in a transaction of its own that commits with {@code
 *       synchronous_commit = off}, releasing those locks at once, and then, in the same round trip,
 *       the {@link JournalFlush} statement, which returns once the WAL is flushed up to it, so past
 *       the commit. Another server's round commits while this one waits, and the waits of several
 *       servers end with one WAL write. It costs a second commit record (about 10-20% of a single
 *       client's rate in {@code pgbench}), hence only while others write.
 * </ul>
 *
 * <p>Both take the writers' advisory lock shared (archiving takes it exclusive) and call {@code
 * loci_append} (schema version 3), which reads the head under a lock of its own that every append
 * takes in turn, and inserts the round after it: renumbered if other servers appended since the
 * round was decided and none of their batches shares a key with it, refused (nothing inserted)
 * otherwise. So a server's round waits in the database for the round before it, never for a
 * refusal's round trip, a catch-up and a second decision.
 */
final class JournalInsert {
  /** What became of the round trip. */
  enum Result {
    /** Committed and flushed, after {@link Outcome#head()}. */
    WRITTEN,
    /** Others appended since the round was decided, with a key of the round: nothing written. */
    REFUSED,
    /** The statement failed before its commit: nothing was written. */
    FAILED,
    /** The reply was lost, or the flush failed after the commit: the outcome must be asked. */
    UNKNOWN
  }

  /** The result, the head the round was inserted after, and the failure that led to it if any. */
  record Outcome(Result result, long head, SQLException cause) {}

  private static final String LOCK_AND_APPEND =
      "SELECT pg_advisory_xact_lock_shared("
          + JournalArchive.WRITERS_LOCK
          + "); SELECT loci_append(?, ?::text[], ?, ?::int[], ?::int[], ?::text[], ?::bigint[])";

  private static final String SHARED =
      "BEGIN; SET LOCAL synchronous_commit = off; " + LOCK_AND_APPEND + "; COMMIT; ";

  /** PostgreSQL's warning when {@code ROLLBACK} finds no transaction open. */
  private static final String NO_TRANSACTION = "25P01";

  private JournalInsert() {}

  /**
   * Appends the round's {@code lines}, numbered from {@code first} on, with their {@code
   * namespaces} and {@code keys} ({@link JournalKeys#literal}, null elements for none) on {@code
   * c}; {@code w} ({@link JournalRenumber}) lets the database renumber them, null forbids it. Every
   * failure is an outcome.
   */
  static Outcome run(
      Connection c,
      long first,
      String[] namespaces,
      byte[][] lines,
      String[] keys,
      Long[] w,
      boolean shared,
      JournalFlush flush) {
    String sql = shared ? SHARED + flush.statement() : LOCK_AND_APPEND;
    // the lines travel as one binary bytea cut by offsets: an array of bytea would be hex text
    int total = 0;
    for (byte[] line : lines) {
      total += line.length;
    }
    byte[] blob = new byte[total];
    Integer[] offsets = new Integer[lines.length];
    Integer[] lengths = new Integer[lines.length];
    for (int i = 0, at = 0; i < lines.length; at += lines[i].length, i++) {
      System.arraycopy(lines[i], 0, blob, at, lines[i].length);
      offsets[i] = at + 1;
      lengths[i] = lines[i].length;
    }
    try (PreparedStatement append = c.prepareStatement(sql)) {
      append.setLong(1, first);
      append.setArray(2, c.createArrayOf("text", namespaces));
      append.setBytes(3, blob);
      append.setArray(4, c.createArrayOf("int4", offsets));
      append.setArray(5, c.createArrayOf("int4", lengths));
      append.setArray(6, c.createArrayOf("text", keys));
      if (w == null) {
        append.setNull(7, java.sql.Types.ARRAY);
      } else {
        append.setArray(7, c.createArrayOf("int8", w));
      }
      append.execute(); // shared: BEGIN, SET, the lock's row, the head, COMMIT, the flush's row
      if (shared) {
        append.getMoreResults(); // SET
        append.getMoreResults(); // the lock's row
      }
      append.getMoreResults(); // the head
      long head;
      try (ResultSet r = append.getResultSet()) {
        r.next();
        head = r.getLong(1);
      }
      if (shared) {
        append.getMoreResults(); // COMMIT
        append.getMoreResults(); // the flush's row
      }
      return new Outcome(head < 0 ? Result.REFUSED : Result.WRITTEN, head, null);
    } catch (SQLException e) {
      if (PostgresJournal.isConnectionLoss(e)) {
        return new Outcome(Result.UNKNOWN, -1, e);
      }
      if (shared) {
        boolean rolledBack;
        try {
          rolledBack = rolledBack(c);
        } catch (SQLException lost) {
          e.addSuppressed(lost);
          return new Outcome(Result.UNKNOWN, -1, e); // whether it had committed must be asked
        }
        if (!rolledBack) {
          // no transaction was open: the commit went through and the flush failed
          return new Outcome(Result.UNKNOWN, -1, e);
        }
      }
      return new Outcome(Result.FAILED, -1, e);
    }
  }

  /**
   * Ends the transaction a failed shared append left open (the statements after the failed one, the
   * {@code COMMIT} among them, are skipped), so the pooled connection is usable again; returns
   * false if none was open, that is the commit had already happened.
   */
  private static boolean rolledBack(Connection c) throws SQLException {
    try (Statement end = c.createStatement()) {
      end.execute("ROLLBACK");
      for (SQLWarning w = end.getWarnings(); w != null; w = w.getNextWarning()) {
        if (NO_TRANSACTION.equals(w.getSQLState())) {
          return false;
        }
      }
      return true;
    }
  }
}
