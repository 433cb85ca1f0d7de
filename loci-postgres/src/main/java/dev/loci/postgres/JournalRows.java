package dev.loci.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.loci.Damage;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.JournalLine;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;
import java.util.function.Consumer;

/** Reading the rows of a {@link PostgresJournal}: the archive and the table as one journal. */
final class JournalRows {
  /** Where damage is reported as found. */
  static final String SOURCE = "postgresql:loci_batch";

  private JournalRows() {}

  /**
   * Reads the batches from {@code fromSeq} on, in order, from {@code loci_batch_archive} and {@code
   * loci_batch} in one statement (one snapshot: archiving moves rows between them atomically); rows
   * that fail their checksum, do not parse or hold another batch's line, and missing numbers, go to
   * {@code damage}. Returns the last sequence number read (or the one before {@code fromSeq}).
   */
  static long read(
      HikariDataSource pool, long fromSeq, Consumer<JournalEntry> entries, Consumer<Damage> damage)
      throws SQLException {
    try (Connection c = pool.getConnection()) {
      long floor;
      long head;
      boolean flushed;
      try (Statement s = c.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SELECT floor, GREATEST((SELECT COALESCE(MAX(seq), 0) FROM loci_batch), floor,"
                      + " archived), "
                      + JournalFlush.COVERED
                      + " FROM loci_journal WHERE id = 1")) {
        r.next();
        floor = r.getLong(1);
        head = r.getLong(2);
        flushed = r.getBoolean(3);
      }
      if (!flushed) {
        // appends commit before their flush: wait for it, so no batch is applied ahead of it
        try (Statement s = c.createStatement()) {
          s.execute(JournalFlush.WAL.statement());
        }
      }
      c.setAutoCommit(false); // a cursor: rows stream in fetch-size pieces
      long expected = Math.max(fromSeq, floor + 1);
      // one statement, one snapshot: archiving moves rows atomically from one table to the other
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT seq, line FROM loci_batch_archive WHERE seq BETWEEN ? AND ? UNION ALL"
                  + " SELECT seq, line FROM loci_batch WHERE seq BETWEEN ? AND ? ORDER BY seq")) {
        s.setFetchSize(1000);
        s.setLong(1, fromSeq);
        s.setLong(2, head);
        s.setLong(3, fromSeq);
        s.setLong(4, head);
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            long seq = r.getLong(1);
            byte[] line = r.getBytes(2);
            if (seq > expected) {
              damage.accept(
                  new Damage(
                      Damage.Kind.SEQUENCE_GAP,
                      Path.of(SOURCE),
                      -1,
                      OptionalLong.of(seq),
                      "batches " + expected + " to " + (seq - 1) + " are missing"));
            }
            expected = seq + 1;
            JournalEntry entry;
            try {
              entry = JournalLine.decode(line);
              if (entry.seq() != seq) {
                throw new IllegalArgumentException(
                    "row " + seq + " holds the line of batch " + entry.seq());
              }
            } catch (IllegalArgumentException e) {
              damage.accept(
                  new Damage(
                      Damage.Kind.BAD_LINE,
                      Path.of(SOURCE),
                      -1,
                      OptionalLong.of(seq),
                      e.getMessage()));
              continue;
            }
            entries.accept(entry);
          }
        }
      }
      c.rollback();
      return expected - 1;
    }
  }
}
