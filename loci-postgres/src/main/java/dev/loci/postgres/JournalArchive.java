package dev.loci.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.loci.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Archiving of a {@link PostgresJournal}: servers register the snapshot each compaction writes
 * (table {@code loci_server}), and {@link #archive} moves the batches at or below the lowest
 * registered snapshot from {@code loci_batch} to {@code loci_batch_archive} in one transaction.
 * Reads see both tables as one journal, so replay, {@code verify} and export still see every batch.
 *
 * <p>Appends take the writers' advisory lock shared, archiving takes it exclusive: an append either
 * commits before the move (its row moves with the others if the snapshots cover it) or starts after
 * it and sees the new {@code archived} mark, above which it must number its batches.
 */
public final class JournalArchive {
  /** The advisory lock appends take shared and archiving exclusive (per database). */
  static final long WRITERS_LOCK = 0x6c6f6369_6a726e6cL;

  /** The file in a data directory holding the id its server registers under. */
  static final String SERVER_ID_FILE = "journal-server-id";

  private JournalArchive() {}

  /**
   * A server registered in the journal.
   *
   * @param id its id (kept in its data directory's {@value #SERVER_ID_FILE})
   * @param snapshotSeq the sequence number its newest compaction's snapshot covers
   * @param dataDir the data directory it registered from, as it named it
   * @param seenAt when it last registered
   */
  public record Server(String id, long snapshotSeq, String dataDir, Instant seenAt) {
    /** Checks presence. */
    public Server {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(dataDir, "dataDir");
      Objects.requireNonNull(seenAt, "seenAt");
    }
  }

  /**
   * What {@link #archive} did.
   *
   * @param moved how many batches it moved to {@code loci_batch_archive}
   * @param through every batch at or below this number is archived now (0: none)
   * @param servers the registered servers whose snapshots decided {@code through}
   */
  public record Report(long moved, long through, List<Server> servers) {
    /** Copies the list. */
    public Report {
      servers = List.copyOf(servers);
    }
  }

  /** The id of the server whose data directory is {@code dir}, created on first use. */
  static String serverId(Path dir) {
    Path file = dir.resolve(SERVER_ID_FILE);
    try {
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (NoSuchFileException e) {
      // first registration: create it below
    } catch (IOException e) {
      throw new StorageException("cannot read " + file + ": " + e.getMessage(), e);
    }
    String id = UUID.randomUUID().toString();
    Path tmp = dir.resolve(SERVER_ID_FILE + ".tmp");
    try {
      Files.createDirectories(dir);
      Files.writeString(tmp, id + "\n", StandardCharsets.UTF_8);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file);
      }
      return id;
    } catch (FileAlreadyExistsException e) {
      return serverId(dir);
    } catch (IOException e) {
      throw new StorageException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Records that the server whose data directory is {@code dir} holds a snapshot at {@code seq}.
   */
  static void register(HikariDataSource pool, Path dir, long seq, String where) {
    String id = serverId(dir);
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO loci_server (id, snapshot_seq, data_dir) VALUES (?, ?, ?)"
                    + " ON CONFLICT (id) DO UPDATE SET snapshot_seq = EXCLUDED.snapshot_seq,"
                    + " data_dir = EXCLUDED.data_dir, seen_at = now()")) {
      s.setString(1, id);
      s.setLong(2, seq);
      s.setString(3, dir.toAbsolutePath().normalize().toString());
      s.executeUpdate();
    } catch (SQLException e) {
      throw new StorageException(
          "cannot register this server's snapshot in " + where + ": " + e.getMessage(), e);
    }
  }

  /** The registered servers, lowest snapshot first. */
  static List<Server> servers(Connection c) throws SQLException {
    List<Server> servers = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT id, snapshot_seq, data_dir, seen_at FROM loci_server"
                    + " ORDER BY snapshot_seq, id")) {
      while (r.next()) {
        servers.add(
            new Server(
                r.getString(1), r.getLong(2), r.getString(3), r.getTimestamp(4).toInstant()));
      }
    }
    return servers;
  }

  /**
   * Moves the batches at or below the lowest registered snapshot to {@code loci_batch_archive}, in
   * one transaction that holds the writers' lock exclusively (appends wait for it). Moves nothing
   * while no server is registered.
   */
  static Report archive(HikariDataSource pool, String where) {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try {
        try (Statement s = c.createStatement()) {
          s.execute("SELECT pg_advisory_xact_lock(" + WRITERS_LOCK + ")");
        }
        List<Server> servers = servers(c);
        if (servers.isEmpty()) {
          c.rollback();
          return new Report(0, archivedThrough(c), servers);
        }
        long through = servers.get(0).snapshotSeq();
        int moved;
        try (PreparedStatement s =
            c.prepareStatement(
                "WITH moved AS (DELETE FROM loci_batch WHERE seq <= ?"
                    + " RETURNING seq, ns, line, written_at)"
                    + " INSERT INTO loci_batch_archive SELECT * FROM moved")) {
          s.setLong(1, through);
          moved = s.executeUpdate();
        }
        try (PreparedStatement s =
            c.prepareStatement(
                "UPDATE loci_journal SET archived = GREATEST(archived, ?) WHERE id = 1")) {
          s.setLong(1, through);
          s.executeUpdate();
        }
        c.commit();
        return new Report(moved, archivedThrough(c), servers);
      } catch (SQLException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new StorageException("cannot archive batches in " + where + ": " + e.getMessage(), e);
    }
  }

  /**
   * Forgets a server (one retired for good), so that its snapshot no longer holds archiving back.
   *
   * @return whether it was registered
   */
  static boolean forget(HikariDataSource pool, String id, String where) {
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement("DELETE FROM loci_server WHERE id = ?")) {
      s.setString(1, id);
      return s.executeUpdate() > 0;
    } catch (SQLException e) {
      throw new StorageException("cannot forget server " + id + " in " + where, e);
    }
  }

  private static long archivedThrough(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT archived FROM loci_journal WHERE id = 1")) {
      r.next();
      long archived = r.getLong(1);
      c.commit();
      return archived;
    }
  }
}
