package dev.loci.postgres;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A fresh database on the machine's PostgreSQL for one test class, dropped by {@link #close()}.
 * Where no server answers, tests are skipped with how to start one, unless {@code
 * LOCI_REQUIRE_POSTGRES=1} (CI sets it), which makes that a failure.
 */
public final class TestDatabase implements AutoCloseable {
  /** Where the test server listens. */
  public static final String HOST =
      System.getenv().getOrDefault("LOCI_TEST_PG_HOST", "127.0.0.1:5432");

  /** The user tests connect as. */
  public static final String USER = System.getenv().getOrDefault("LOCI_TEST_PG_USER", "postgres");

  /** The database's name. */
  public final String name;

  private TestDatabase(String name) {
    this.name = name;
  }

  /** Creates a database named after the test class, or skips the test if none can be. */
  public static TestDatabase create(String prefix) {
    String name =
        (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12))
            .toLowerCase(Locale.ROOT);
    try (Connection c = admin();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      boolean required = "1".equals(System.getenv("LOCI_REQUIRE_POSTGRES"));
      String how =
          "no PostgreSQL at "
              + HOST
              + " ("
              + e.getMessage()
              + "); start one with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql)"
              + " main start";
      if (required) {
        throw new IllegalStateException(how + " (LOCI_REQUIRE_POSTGRES=1 makes this a failure)", e);
      }
      assumeTrue(false, "skipped: " + how);
    }
    return new TestDatabase(name);
  }

  /** The journal URL of this database. */
  public String url() {
    return "postgresql://" + USER + "@" + HOST + "/" + name;
  }

  /** A journal over this database for the server whose data directory is {@code dataDir}. */
  public PostgresJournal journal(java.nio.file.Path dataDir) {
    return PostgresJournal.open(
        PostgresUrl.parse(url()), JournalOptions.defaults().withDataDir(dataDir));
  }

  /** A plain connection to this database, for tests that look at or damage the rows. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://" + HOST + "/" + name, USER, "");
  }

  private static Connection admin() throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://" + HOST + "/postgres", USER, "");
  }

  @Override
  public void close() throws SQLException {
    try (Connection c = admin();
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }
}
