package dev.loci.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Password authentication over TCP, with the password from the URL or from a password file ({@code
 * PGPASSFILE}, the driver's {@code org.postgresql.pgpassfile} property, or {@code ~/.pgpass}, which
 * the PostgreSQL JDBC driver reads when no password is given).
 *
 * <p>Needs a role that must give a password while every other connection keeps trust auth: the test
 * creates role {@value #ROLE} if missing, and is skipped unless the server's {@code pg_hba.conf}
 * has, above its trust rules, {@code host all loci_pwtest 127.0.0.1/32 scram-sha-256} ({@code
 * .ci/run} adds it; docs/cluster.md); with {@code LOCI_REQUIRE_POSTGRES=1} a missing rule fails.
 */
class PasswordAuthTest {
  static final String ROLE = "loci_pwtest";
  private static final String PASSWORD = "loci-pw-test";
  private static final String PGPASSFILE_PROPERTY = "org.postgresql.pgpassfile";

  private TestDatabase db;

  @TempDir Path dir;

  @BeforeEach
  void createDatabaseOwnedByTheRole() throws SQLException {
    assumeTrue(System.getenv("PGPASSWORD") == null, "skipped: PGPASSWORD is set");
    db = TestDatabase.create("loci_pwauth");
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '"
              + ROLE
              + "') THEN CREATE ROLE "
              + ROLE
              + " LOGIN; END IF; END$$");
      s.execute("ALTER ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'");
      s.execute("ALTER DATABASE " + db.name + " OWNER TO " + ROLE);
      s.execute("ALTER SCHEMA public OWNER TO " + ROLE);
    }
    boolean asked;
    try (Connection c =
        DriverManager.getConnection(
            "jdbc:postgresql://" + TestDatabase.HOST + "/" + db.name, ROLE, "not-the-password")) {
      asked = false; // trust let a wrong password in
    } catch (SQLException e) {
      asked = true;
    }
    String missing =
        "no pg_hba.conf rule asks "
            + ROLE
            + " for a password; add 'host all "
            + ROLE
            + " 127.0.0.1/32 scram-sha-256' above the trust rules and reload (.ci/run does)";
    if (!asked && "1".equals(System.getenv("LOCI_REQUIRE_POSTGRES"))) {
      throw new IllegalStateException(missing + " (LOCI_REQUIRE_POSTGRES=1 makes this a failure)");
    }
    assumeTrue(asked, "skipped: " + missing);
  }

  @AfterEach
  void dropDatabase() throws Exception {
    System.clearProperty(PGPASSFILE_PROPERTY);
    if (db != null) {
      db.close();
    }
  }

  private String url() {
    return "postgresql://" + ROLE + "@" + TestDatabase.HOST + "/" + db.name;
  }

  private Path passwordFile(String password) throws IOException {
    Path file = dir.resolve("pgpass");
    Files.writeString(
        file,
        "# host:port:database:user:password\n*:*:*:" + ROLE + ":" + password + "\n",
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  private static Batch batch() {
    return new Batch(
        Instant.parse("2026-11-26T06:00:00Z"),
        Namespace.of("acme"),
        "test",
        List.of(Event.ofJson("trace.retired", "{\"uid\":\"x\"}")));
  }

  @Test
  void passwordInTheUrl_connects() {
    String withPassword = url().replace(ROLE + "@", ROLE + ":" + PASSWORD + "@");
    try (PostgresJournal journal = PostgresJournal.open(withPassword)) {
      assertThat(journal.appendDurably(batch())).isEqualTo(1);
    }
  }

  @Test
  void passwordFromThePasswordFile_connects() throws Exception {
    System.setProperty(PGPASSFILE_PROPERTY, passwordFile(PASSWORD).toString());
    try (PostgresJournal journal = PostgresJournal.open(url())) {
      assertThat(journal.appendDurably(batch())).isEqualTo(1);
    }
  }

  @Test
  void wrongPasswordInThePasswordFile_refusedAndTheMessageNeverHoldsIt() throws Exception {
    System.setProperty(PGPASSFILE_PROPERTY, passwordFile("wrong-secret-123").toString());
    assertThatThrownBy(() -> PostgresJournal.open(url()))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("password authentication failed")
        .hasMessageNotContaining("wrong-secret-123");
  }

  /** {@code PGPASSFILE} is read from the environment, so this runs in a child JVM that has it. */
  @Test
  void pgpassfileEnvironmentVariable_isReadInAChildProcess() throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                AppendOnce.class.getName(),
                url())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("child.log").toFile());
    pb.environment().put("PGPASSFILE", passwordFile(PASSWORD).toString());
    Process child = pb.start();
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String log = Files.readString(dir.resolve("child.log"));
    assertThat(child.exitValue()).as(log).isZero();
    assertThat(log).contains("appended 1");
  }

  /** The child process: opens the journal at its argument and appends one batch. */
  static final class AppendOnce {
    private AppendOnce() {}

    public static void main(String[] args) {
      try (PostgresJournal journal = PostgresJournal.open(args[0])) {
        System.out.println("appended " + journal.appendDurably(batch()));
      }
    }
  }
}
