package dev.loci.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
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
 * <p>Both take the writers' advisory lock shared (archiving takes it exclusive) and insert nothing
 * if the first number is at or below the archived ones, whose rows left the primary key's reach.
 */
final class JournalInsert {
  /** What became of the round trip. */
  enum Result {
    /** Committed and flushed. */
    WRITTEN,
    /** Another writer holds a number (the primary key refused): nothing was written. */
    TAKEN,
    /** The first number is archived: nothing was written, this server is behind the archiving. */
    ARCHIVED,
    /** The statement failed before its commit: nothing was written. */
    FAILED,
    /** The reply was lost, or the flush failed after the commit: the outcome must be asked. */
    UNKNOWN
  }

  /** The result, and the failure that led to it if any. */
  record Outcome(Result result, SQLException cause) {}

  private static final String LOCK_AND_INSERT =
      "SELECT pg_advisory_xact_lock_shared("
          + JournalArchive.WRITERS_LOCK
          + "); INSERT INTO loci_batch (seq, ns, line, keys)"
          + " SELECT s, n, substring(b FROM o FOR l), k::bigint[] FROM (SELECT ?::bytea) AS t(b),"
          + " unnest(?::bigint[], ?::text[], ?::int[], ?::int[], ?::text[]) AS u(s, n, o, l, k)"
          + " WHERE ?::bigint > (SELECT archived FROM loci_journal WHERE id = 1)";

  private static final String SHARED =
      "BEGIN; SET LOCAL synchronous_commit = off; " + LOCK_AND_INSERT + "; COMMIT; ";

  private static final String UNIQUE_VIOLATION = "23505";

  /** PostgreSQL's warning when {@code ROLLBACK} finds no transaction open. */
  private static final String NO_TRANSACTION = "25P01";

  private JournalInsert() {}

  /**
   * Inserts the batches {@code seqs}, {@code namespaces}, {@code lines} with their {@code keys}
   * ({@link JournalKeys#literal}, null elements for none) on {@code c}; every failure is an
   * outcome.
   */
  static Outcome run(
      Connection c,
      Long[] seqs,
      String[] namespaces,
      byte[][] lines,
      String[] keys,
      boolean shared,
      JournalFlush flush) {
    String sql = shared ? SHARED + flush.statement() : LOCK_AND_INSERT;
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
    try (PreparedStatement insert = c.prepareStatement(sql)) {
      insert.setBytes(1, blob);
      insert.setArray(2, c.createArrayOf("bigint", seqs));
      insert.setArray(3, c.createArrayOf("text", namespaces));
      insert.setArray(4, c.createArrayOf("int4", offsets));
      insert.setArray(5, c.createArrayOf("int4", lengths));
      insert.setArray(6, c.createArrayOf("text", keys));
      insert.setLong(7, seqs[0]);
      insert.execute(); // shared: BEGIN, SET, the lock's row, the count, COMMIT, the flush's row
      if (shared) {
        insert.getMoreResults(); // SET
        insert.getMoreResults(); // the lock's row
      }
      boolean inserted = !insert.getMoreResults() && insert.getUpdateCount() == seqs.length;
      return new Outcome(inserted ? Result.WRITTEN : Result.ARCHIVED, null);
    } catch (SQLException e) {
      if (PostgresJournal.isConnectionLoss(e)) {
        return new Outcome(Result.UNKNOWN, e);
      }
      if (shared) {
        boolean rolledBack;
        try {
          rolledBack = rolledBack(c);
        } catch (SQLException lost) {
          e.addSuppressed(lost);
          return new Outcome(Result.UNKNOWN, e); // whether it had committed must be asked
        }
        if (!rolledBack) {
          // no transaction was open: the commit went through and the flush failed
          return new Outcome(Result.UNKNOWN, e);
        }
      }
      return new Outcome(
          UNIQUE_VIOLATION.equals(e.getSQLState()) ? Result.TAKEN : Result.FAILED, e);
    }
  }

  /**
   * Ends the transaction a failed shared insert left open (a refused insert aborts it, and the
   * statements after it, the {@code COMMIT} among them, are skipped), so the pooled connection is
   * usable again; returns false if none was open, that is the commit had already happened.
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
