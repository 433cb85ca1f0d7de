package dev.loci.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Damage;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.Trace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new server joins a cluster with an empty data directory (replaying every batch) or with a copy
 * of another server's {@code snapshots/} directory (replaying only the batches after it), as
 * docs/cluster.md describes.
 */
class JoinTest {
  private static final Namespace NS = Namespace.of("acme");

  private TestDatabase db;

  @TempDir Path dir;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_join");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  private Loci server(String name) {
    return Loci.builder()
        .dataDir(dir.resolve(name))
        .journal(d -> PostgresJournal.open(db.url()))
        .open();
  }

  /** Copies the files of {@code from} into {@code to}, as an operator copies snapshots. */
  static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }

  @Test
  void join_withACopiedSnapshot_replaysOnlyTheBatchesAfterIt() throws Exception {
    List<Trace> written = new ArrayList<>();
    long snapshotSeq;
    try (Loci a = server("a")) {
      for (int i = 0; i < 10; i++) {
        written.add(a.traces().add(NS, "{\"before\":" + i + "}", List.of()));
      }
      Loci.CompactReport compacted = a.compact();
      snapshotSeq = compacted.snapshotSeq();
      assertThat(compacted.segmentsDeleted()).isZero(); // the rows stay for the others
      for (int i = 0; i < 5; i++) {
        written.add(a.traces().add(NS, "{\"after\":" + i + "}", List.of()));
      }
      copy(dir.resolve("a").resolve("snapshots"), dir.resolve("b").resolve("snapshots"));
    }
    assertThat(snapshotSeq).isEqualTo(10);
    // damage a batch the snapshot covers: a server that replays it reports it, one that starts
    // from the copied snapshot never reads it
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("UPDATE loci_batch SET line = convert_to('not a batch', 'UTF8') WHERE seq = 3");
    }
    try (Loci b = server("b")) {
      assertThat(b.openDamage()).isEmpty();
      assertThat(b.lastSeq()).isEqualTo(15);
      for (Trace t : written) {
        assertThat(b.traces().get(NS, t.uid())).isEqualTo(t);
      }
      Trace mine = b.traces().add(NS, "{\"joined\":true}", List.of());
      assertThat(mine).isNotNull();
      assertThat(b.lastSeq()).isEqualTo(16);
    }
    try (Loci fresh = server("fresh")) {
      assertThat(fresh.openDamage())
          .extracting(Damage::kind)
          .containsExactly(Damage.Kind.BAD_LINE); // it replayed everything, row 3 included
      assertThat(fresh.lastSeq()).isEqualTo(16);
    }
  }
}
