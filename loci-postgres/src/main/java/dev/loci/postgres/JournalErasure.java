package dev.loci.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.loci.StorageException;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.JournalLine;
import dev.loci.spi.JournalUnavailableException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Erasure over a {@link PostgresJournal} ({@link Journal#rewriteAndAppend}): one transaction takes
 * the writers' advisory lock exclusively (every server's appends wait, as for archiving), reads the
 * head, lets the caller catch up and decide the erasure's batch, rewrites every row of {@code
 * loci_batch_archive} and {@code loci_batch} that the scrub changes (the line re-encoded with its
 * sequence number, time, namespace and actor and a new CRC-32C), inserts the erasure's batch after
 * the head and commits: all of it or none of it.
 *
 * <p>Rows are found in the database by the bytes of each token as a JSON string ({@code "id"}), the
 * same whole-string tokens the file journal's rewrite matches; a token JSON would escape cannot be
 * matched on bytes, and then every row is decoded. A row that does not decode is kept as it is, and
 * {@code verify} goes on reporting it.
 */
final class JournalErasure {
  private static final String[] TABLES = {"loci_batch_archive", "loci_batch"};
  private static final int CHUNK = 256;

  private JournalErasure() {}

  /**
   * Runs one erasure; returns what it did.
   *
   * @throws JournalUnavailableException if the database cannot be reached (nothing changed unless
   *     it says otherwise: a lost commit reply is resolved before returning)
   * @throws StorageException if a statement failed (nothing changed)
   */
  static Journal.Rewritten run(
      HikariDataSource pool,
      String where,
      Set<String> tokens,
      Function<JournalEntry, Optional<List<Event>>> scrub,
      LongFunction<Optional<Batch>> then) {
    Connection c;
    try {
      c = pool.getConnection();
    } catch (SQLException e) {
      throw new JournalUnavailableException(
          "cannot erase in " + where + ": " + e.getMessage() + "; nothing was changed", e);
    }
    try (c) {
      c.setAutoCommit(false);
      long head;
      long rewritten = 0;
      byte[] line;
      String ns;
      try {
        try (Statement s = c.createStatement()) {
          s.execute("SELECT pg_advisory_xact_lock(" + JournalArchive.WRITERS_LOCK + ")");
        }
        head = JournalSchema.head(c);
        Optional<Batch> record = then.apply(head);
        if (record.isEmpty()) {
          c.rollback();
          return new Journal.Rewritten(0, 0);
        }
        for (String table : TABLES) {
          rewritten += rewrite(c, table, tokens, scrub);
        }
        line = JournalLine.encode(head + 1, record.get());
        ns = record.get().namespace().toString();
        try (PreparedStatement s =
            c.prepareStatement("INSERT INTO loci_batch (seq, ns, line) VALUES (?, ?, ?)")) {
          s.setLong(1, head + 1);
          s.setString(2, ns);
          s.setBytes(3, line);
          s.executeUpdate();
        }
      } catch (SQLException | RuntimeException e) {
        rollback(c, e);
        throw failed(where, e);
      }
      try {
        c.commit();
      } catch (SQLException e) {
        if (!PostgresJournal.isConnectionLoss(e)) {
          throw failed(where, e);
        }
        resolve(pool, where, head + 1, ns, line, e);
      }
      return new Journal.Rewritten(rewritten, head + 1);
    } catch (SQLException e) {
      throw failed(where, e); // closing the connection
    }
  }

  /** Rewrites the rows of {@code table} that the scrub changes; returns how many. */
  private static long rewrite(
      Connection c,
      String table,
      Set<String> tokens,
      Function<JournalEntry, Optional<List<Event>>> scrub)
      throws SQLException {
    List<Long> candidates = new ArrayList<>();
    byte[][] patterns = patterns(tokens);
    String filter =
        patterns == null
            ? ""
            : " WHERE EXISTS (SELECT 1 FROM unnest(?::bytea[]) t WHERE position(t IN line) > 0)";
    try (PreparedStatement s =
        c.prepareStatement("SELECT seq FROM " + table + filter + " ORDER BY seq")) {
      if (patterns != null) {
        s.setObject(1, patterns);
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          candidates.add(r.getLong(1));
        }
      }
    }
    long changed = 0;
    for (int from = 0; from < candidates.size(); from += CHUNK) {
      List<Long> chunk = candidates.subList(from, Math.min(candidates.size(), from + CHUNK));
      try (PreparedStatement read =
              c.prepareStatement("SELECT seq, line FROM " + table + " WHERE seq = ANY(?)");
          PreparedStatement update =
              c.prepareStatement("UPDATE " + table + " SET line = ? WHERE seq = ?")) {
        read.setArray(1, c.createArrayOf("bigint", chunk.toArray()));
        int updates = 0;
        try (ResultSet r = read.executeQuery()) {
          while (r.next()) {
            byte[] scrubbed = scrubbed(r.getLong(1), r.getBytes(2), scrub);
            if (scrubbed != null) {
              update.setBytes(1, scrubbed);
              update.setLong(2, r.getLong(1));
              update.addBatch();
              updates++;
            }
          }
        }
        if (updates > 0) {
          update.executeBatch();
          changed += updates;
        }
      }
    }
    return changed;
  }

  /** The row's new line, or null to keep it (unchanged by the scrub, or not decodable). */
  private static byte[] scrubbed(
      long seq, byte[] line, Function<JournalEntry, Optional<List<Event>>> scrub) {
    JournalEntry entry;
    try {
      entry = JournalLine.decode(line);
    } catch (IllegalArgumentException e) {
      return null; // damaged: kept byte for byte, verify goes on reporting it
    }
    if (entry.seq() != seq) {
      return null;
    }
    return scrub
        .apply(entry)
        .map(
            events ->
                JournalLine.encode(
                    seq, new Batch(entry.ts(), entry.namespace(), entry.actor(), events)))
        .orElse(null);
  }

  /**
   * The tokens as the bytes of JSON strings, or null when one of them is a string JSON escapes (or
   * empty), which bytes cannot match: then every row is decoded.
   */
  private static byte[][] patterns(Set<String> tokens) {
    if (tokens.isEmpty()) {
      return null;
    }
    byte[][] out = new byte[tokens.size()][];
    int i = 0;
    for (String t : tokens) {
      if (t.isEmpty()
          || !t.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\')) {
        return null;
      }
      out[i++] = ('"' + t + '"').getBytes(StandardCharsets.US_ASCII);
    }
    return out;
  }

  /** The commit's reply was lost: asks whether the erasure's batch is in the table. */
  private static void resolve(
      HikariDataSource pool, String where, long seq, String ns, byte[] line, SQLException lost) {
    LostReply.Outcome outcome;
    try {
      outcome = LostReply.probe(pool, seq, ns, line);
    } catch (SQLException e) {
      lost.addSuppressed(e);
      throw new StorageException(
          "the erasure in "
              + where
              + " may or may not have committed ("
              + lost.getMessage()
              + ") and the database cannot be asked; erase again once it can (an erasure that"
              + " committed changes nothing the second time)",
          lost);
    }
    if (outcome != LostReply.Outcome.COMMITTED) {
      throw failed(where, lost); // the commit never happened: every row is as it was
    }
  }

  private static void rollback(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e); // a lost connection: the server rolls back itself
    }
  }

  private static RuntimeException failed(String where, Exception e) {
    if (e instanceof RuntimeException r) {
      return r;
    }
    if (e instanceof SQLException s && PostgresJournal.isConnectionLoss(s)) {
      return new JournalUnavailableException(
          "cannot erase in " + where + ": " + e.getMessage() + "; nothing was changed", e);
    }
    return new StorageException(
        "cannot erase in " + where + ": " + e.getMessage() + "; nothing was changed", e);
  }
}
