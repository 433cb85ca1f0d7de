package dev.loci.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQLite baseline: one database file in WAL mode with {@code synchronous=FULL}, a {@code
 * traces} table shaped like a Loci trace, and one connection per writer, each inserting one record
 * per transaction (an autocommit {@code INSERT}).
 *
 * <p>{@code synchronous=FULL} in WAL mode fsyncs the WAL on every commit, so an acknowledged insert
 * is as durable as a Loci append under {@code always}. Connections wait up to {@value
 * #BUSY_TIMEOUT_MS} ms for the write lock instead of failing.
 *
 * <p>Not thread-safe: each {@link ThroughputRun.Writer} it hands out must stay on one thread at a
 * time. Close it to close every connection.
 */
final class SqlitePeer implements AutoCloseable {
  /** How long a connection waits for the write lock before giving up. */
  static final int BUSY_TIMEOUT_MS = 600_000;

  private static final String SCHEMA =
      "CREATE TABLE IF NOT EXISTS traces ("
          + "uid TEXT PRIMARY KEY, "
          + "ns TEXT NOT NULL, "
          + "content TEXT NOT NULL, "
          + "predecessor_uid TEXT, "
          + "created_at INTEGER NOT NULL, "
          + "updated_at INTEGER NOT NULL, "
          + "retired INTEGER NOT NULL, "
          + "replay_count INTEGER NOT NULL, "
          + "tags TEXT NOT NULL)";

  private static final String INSERT =
      "INSERT INTO traces (uid, ns, content, predecessor_uid, created_at, updated_at, retired,"
          + " replay_count, tags) VALUES (?, ?, ?, NULL, ?, ?, 0, 1, ?)";

  private final Path file;
  private final boolean durable;
  private final List<Connection> connections = new ArrayList<>();

  private SqlitePeer(Path file, boolean durable) {
    this.file = file;
    this.durable = durable;
  }

  /**
   * Creates the database file and its table, switched to WAL mode.
   *
   * @param durable {@code synchronous=FULL} if true, as measured; {@code OFF} for JIT warm-up only
   * @throws SQLException if SQLite refuses, or does not end up in WAL mode
   */
  static SqlitePeer create(Path file, boolean durable) throws SQLException {
    SqlitePeer peer = new SqlitePeer(file, durable);
    try {
      Connection c = peer.connect();
      try (Statement s = c.createStatement()) {
        s.executeUpdate(SCHEMA);
      }
      return peer;
    } catch (SQLException | RuntimeException e) {
      peer.close();
      throw e;
    }
  }

  /** Opens a connection with the benchmark's pragmas and checks that they took. */
  private Connection connect() throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
    connections.add(c);
    try (Statement s = c.createStatement()) {
      s.execute("PRAGMA busy_timeout=" + BUSY_TIMEOUT_MS);
      expect(s, "PRAGMA journal_mode=WAL", "wal");
      s.execute("PRAGMA synchronous=" + (durable ? "FULL" : "OFF"));
      expect(s, "PRAGMA synchronous", durable ? "2" : "0");
    }
    return c;
  }

  private static void expect(Statement s, String sql, String value) throws SQLException {
    try (ResultSet r = s.executeQuery(sql)) {
      String found = r.next() ? r.getString(1) : "";
      if (!value.equalsIgnoreCase(found)) {
        throw new SQLException(sql + ": expected " + value + ", found '" + found + "'");
      }
    }
  }

  /** A writer with its own connection: one autocommit insert of record {@code i} per call. */
  ThroughputRun.Writer writer(BenchRecords records) throws SQLException {
    Connection c = connect();
    PreparedStatement insert = c.prepareStatement(INSERT);
    return i -> {
      Instant now = Instant.now();
      long micros = BenchRecords.micros(now);
      insert.setString(1, BenchRecords.uuidV7(now));
      insert.setString(2, BenchRecords.NAMESPACE);
      insert.setString(3, records.content(i));
      insert.setLong(4, micros);
      insert.setLong(5, micros);
      insert.setString(6, BenchRecords.TAGS_JSON);
      int rows = insert.executeUpdate();
      if (rows != 1) {
        throw new SQLException("insert of record " + i + " changed " + rows + " rows");
      }
    };
  }

  /** How many rows the table holds, read through a fresh connection. */
  long count() throws SQLException {
    try (Statement s = connect().createStatement();
        ResultSet r = s.executeQuery("SELECT COUNT(*) FROM traces")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** Closes every connection it opened; the first failure is thrown, later ones suppressed. */
  @Override
  public void close() throws SQLException {
    SQLException failure = null;
    for (Connection c : connections) {
      try {
        c.close();
      } catch (SQLException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    connections.clear();
    if (failure != null) {
      throw failure;
    }
  }
}
