package dev.loci.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.loci.spi.Batch;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.JournalLine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;

/**
 * Asks the database what became of an append whose reply was lost (the connection dropped during
 * the statement): its transaction committed or will not. A new connection takes the writers' lock
 * exclusively (every append holds it shared, an erasure exclusively, until its transaction ends),
 * so the lost transaction has ended once it has it, and looks for the round's first batch among the
 * batches from the round's first number on: the database may have numbered the round after other
 * servers' batches.
 */
final class LostReply {
  private LostReply() {}

  /**
   * Where the round whose first batch is {@code batch}, numbered {@code first} by this server, was
   * inserted: the number its first batch got, or empty if nothing of it was written.
   *
   * @throws SQLException if the probe itself cannot reach the database
   */
  static OptionalLong probe(HikariDataSource pool, long first, Batch batch) throws SQLException {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SELECT pg_advisory_xact_lock(" + JournalArchive.WRITERS_LOCK + ")");
      }
      try (PreparedStatement s =
          c.prepareStatement("SELECT seq, line FROM loci_batch WHERE seq >= ? ORDER BY seq")) {
        s.setLong(1, first);
        s.setFetchSize(1000);
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            long seq = r.getLong(1);
            JournalEntry entry;
            try {
              entry = JournalLine.decode(r.getBytes(2));
            } catch (IllegalArgumentException damaged) {
              continue;
            }
            if (entry.equals(JournalEntry.of(seq, batch))) {
              return OptionalLong.of(seq);
            }
          }
        }
      } finally {
        c.rollback();
      }
      return OptionalLong.empty();
    }
  }
}
