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
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;

/** Reading the rows of a {@link PostgresJournal}: the archive and the table as one journal. */
final class JournalRows {
  /** Where damage is reported as found. */
  static final String SOURCE = "postgresql:loci_batch";

  private JournalRows() {}

  /**
   * Reads the batches from {@code fromSeq} through {@code throughSeq}, in order, from {@code
   * loci_batch_archive} and {@code loci_batch} in one statement (one snapshot: archiving moves rows
   * between them atomically); rows that fail their checksum, do not parse or hold another batch's
   * line, and missing numbers, go to {@code damage}. Every batch through {@code flushedSeq} is
   * known to be flushed (a write of this journal returned after a flush that covers them): the
   * flush is waited for only if a batch read lies past it. Returns the last sequence number read
   * (or the one before {@code fromSeq}); every batch through it is flushed.
   */
  static long read(
      HikariDataSource pool,
      long fromSeq,
      long throughSeq,
      long flushedSeq,
      Consumer<JournalEntry> entries,
      Consumer<Damage> damage)
      throws SQLException {
    try (Connection c = pool.getConnection()) {
      OptionalLong read = readFew(c, fromSeq, throughSeq, flushedSeq, entries, damage);
      if (read.isPresent()) {
        return read.getAsLong();
      }
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
        head = Math.min(r.getLong(2), throughSeq);
        flushed = r.getBoolean(3);
      }
      if (!flushed && head > flushedSeq) {
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
            expected = row(expected, r.getLong(1), r.getBytes(2), entries, damage);
          }
        }
      }
      c.rollback();
      return expected - 1;
    }
  }

  /** At most this many batches are read by {@link #readFew}'s single statement. */
  private static final int FEW = 1000;

  private static final String FEW_ROWS =
      "SELECT j.floor, j.archived, "
          + JournalFlush.COVERED
          + ", b.seq, b.line FROM loci_journal j LEFT JOIN LATERAL (SELECT seq, line FROM"
          + " loci_batch WHERE seq >= ? AND seq <= ? ORDER BY seq LIMIT "
          + (FEW + 1)
          + ") b ON true WHERE j.id = 1";

  /**
   * The common catch-up of a server following the others (a few batches, none archived) in one
   * round trip: the rows from {@code fromSeq} on and whether every commit the statement sees is
   * flushed, in one statement (its snapshot is taken before the flush position is read, so a
   * "flushed" covers every row it returns); the flush is waited for before any row is passed on if
   * not (and some batch read lies past {@code flushedSeq}). Empty, having passed on nothing, if the
   * batches reach into the archive or are more than {@link #FEW}: {@link #read} then reads them
   * with a cursor.
   */
  private static OptionalLong readFew(
      Connection c,
      long fromSeq,
      long throughSeq,
      long flushedSeq,
      Consumer<JournalEntry> entries,
      Consumer<Damage> damage)
      throws SQLException {
    long floor;
    boolean flushed;
    List<Long> seqs = new ArrayList<>();
    List<byte[]> lines = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(FEW_ROWS)) {
      s.setLong(1, fromSeq);
      s.setLong(2, throughSeq);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        floor = r.getLong(1);
        if (fromSeq <= r.getLong(2)) {
          return OptionalLong.empty();
        }
        flushed = r.getBoolean(3);
        do {
          long seq = r.getLong(4);
          if (!r.wasNull()) {
            seqs.add(seq);
            lines.add(r.getBytes(5));
          }
        } while (r.next());
      }
    }
    if (seqs.size() > FEW) {
      return OptionalLong.empty();
    }
    if (!flushed && !seqs.isEmpty() && seqs.get(seqs.size() - 1) > flushedSeq) {
      try (Statement s = c.createStatement()) {
        s.execute(JournalFlush.WAL.statement());
      }
    }
    long expected = Math.max(fromSeq, floor + 1);
    for (int i = 0; i < seqs.size(); i++) {
      expected = row(expected, seqs.get(i), lines.get(i), entries, damage);
    }
    return OptionalLong.of(expected - 1);
  }

  /**
   * Passes on the row {@code seq} read where {@code expected} was due, or its damage (and the gap
   * before it); returns the number due next.
   */
  private static long row(
      long expected,
      long seq,
      byte[] line,
      Consumer<JournalEntry> entries,
      Consumer<Damage> damage) {
    if (seq > expected) {
      damage.accept(
          new Damage(
              Damage.Kind.SEQUENCE_GAP,
              Path.of(SOURCE),
              -1,
              OptionalLong.of(seq),
              "batches " + expected + " to " + (seq - 1) + " are missing"));
    }
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
              Damage.Kind.BAD_LINE, Path.of(SOURCE), -1, OptionalLong.of(seq), e.getMessage()));
      return seq + 1;
    }
    entries.accept(entry);
    return seq + 1;
  }
}
