package dev.loci.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.loci.StorageException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;

/**
 * The journal's schema: created and migrated by Flyway (history table {@code loci_schema_history},
 * migrations in {@code dev/loci/postgres/migration}), refused if newer than this build knows; and
 * the head it records. Stateless.
 */
final class JournalSchema {
  /** The newest schema version this build knows; a newer database is refused. */
  static final int SCHEMA_VERSION = 3;

  private JournalSchema() {}

  /**
   * Creates or migrates the schema in the database behind {@code pool}, named {@code where} in
   * errors.
   *
   * @throws StorageException if the schema is newer than {@link #SCHEMA_VERSION} or cannot be
   *     prepared
   */
  static void migrate(HikariDataSource pool, String where) {
    Flyway flyway =
        Flyway.configure()
            .dataSource(pool)
            .locations("classpath:dev/loci/postgres/migration")
            .table("loci_schema_history")
            .baselineOnMigrate(false)
            .load();
    try {
      for (MigrationInfo applied : flyway.info().applied()) {
        if (applied.getVersion() != null
            && applied.getVersion().getMajor().intValue() > SCHEMA_VERSION) {
          throw new StorageException(
              "the Loci schema in "
                  + where
                  + " is at version "
                  + applied.getVersion()
                  + ", newer than this build knows ("
                  + SCHEMA_VERSION
                  + "): upgrade Loci, never downgrade the database");
        }
      }
      flyway.migrate();
    } catch (org.flywaydb.core.api.FlywayException e) {
      throw new StorageException(
          "cannot prepare the Loci schema in " + where + ": " + e.getMessage(), e);
    }
  }

  /** The highest sequence number used: stored, archived or below the floor. */
  static long head(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT GREATEST((SELECT COALESCE(MAX(seq), 0) FROM loci_batch), floor, archived)"
                    + " FROM loci_journal WHERE id = 1")) {
      r.next();
      return r.getLong(1);
    }
  }
}
