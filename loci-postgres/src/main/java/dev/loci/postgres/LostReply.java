package dev.loci.postgres;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * Asks the database what became of an append whose reply was lost (the connection dropped during
 * the statement): its transaction committed or will not. A new connection inserts the group's first
 * batch again in a transaction it rolls back: the insert waits for the lost transaction to end,
 * then fails on the primary key if it committed (and the stored line is compared) or succeeds if it
 * did not.
 */
final class LostReply {
  /** What the probe found. */
  enum Outcome {
    /** The lost statement committed: the batch is stored, byte for byte. */
    COMMITTED,
    /** It did not: nothing of it was written. */
    NOT_WRITTEN,
    /** Another writer's batch holds the number. */
    ANOTHER_BATCH
  }

  private static final String UNIQUE_VIOLATION = "23505";

  private LostReply() {}

  /**
   * Probes for the batch {@code seq} with {@code line}.
   *
   * @throws SQLException if the probe itself cannot reach the database
   */
  static Outcome probe(HikariDataSource pool, long seq, String ns, byte[] line)
      throws SQLException {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      boolean taken;
      try (PreparedStatement probe =
          c.prepareStatement("INSERT INTO loci_batch (seq, ns, line) VALUES (?, ?, ?)")) {
        probe.setLong(1, seq);
        probe.setString(2, ns);
        probe.setBytes(3, line);
        probe.executeUpdate();
        taken = false;
      } catch (SQLException e) {
        if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
          throw e;
        }
        taken = true;
      }
      c.rollback();
      if (!taken) {
        return Outcome.NOT_WRITTEN;
      }
      byte[] stored = storedLine(c, seq);
      c.rollback();
      return Arrays.equals(stored, line) ? Outcome.COMMITTED : Outcome.ANOTHER_BATCH;
    }
  }

  private static byte[] storedLine(Connection c, long seq) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT line FROM loci_batch WHERE seq = ?")) {
      s.setLong(1, seq);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? r.getBytes(1) : null;
      }
    }
  }
}
