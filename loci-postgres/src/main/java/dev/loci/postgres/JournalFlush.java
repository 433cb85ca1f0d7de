package dev.loci.postgres;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Waiting for PostgreSQL's WAL flush apart from the commit that needs it.
 *
 * <p>An append commits with {@code synchronous_commit = off}, which releases its locks without
 * waiting for the flush, and then runs {@link #statement()}: a transactional logical message (a WAL
 * record of a few bytes, no table) whose synchronous commit flushes the WAL up to itself, so every
 * commit written before it too (the WAL is sequential). Several servers' appends waiting at once
 * share one flush, as the commits of concurrent clients do. Any role may run it, at any {@code
 * wal_level}; logical decoding, if any, sees messages with the prefix {@code loci}.
 *
 * <p>A reader must not apply a batch that is visible but not yet flushed: if the database crashed
 * then, the batch would be gone while a server's projections hold it. A reader therefore reads the
 * head with {@link #COVERED} first, runs the flush statement if that is false, and then reads only
 * up to that head.
 *
 * @param statement the SQL that returns once the WAL up to it is flushed
 */
record JournalFlush(String statement) {
  /** The flush every append waits for. */
  static final JournalFlush WAL =
      new JournalFlush("SELECT pg_logical_emit_message(true, 'loci', '')");

  /**
   * True when the WAL is flushed as far as it was written when the statement's snapshot was taken,
   * so every commit that snapshot sees is durable.
   */
  static final String COVERED = "pg_current_wal_flush_lsn() >= pg_current_wal_insert_lsn()";

  /** Waits, on a connection of its own from {@code pool}, until everything committed is flushed. */
  static void flush(HikariDataSource pool) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      s.execute(WAL.statement());
    }
  }
}
