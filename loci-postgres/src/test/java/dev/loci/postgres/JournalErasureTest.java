package dev.loci.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Namespace;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalEntry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PostgresJournal#rewriteAndAppend}: the rows the scrub changes, in both tables, are
 * rewritten with a new checksum and the erasure's batch appended, in one transaction; nothing
 * changes when the caller decides nothing or when anything fails on the way.
 */
class JournalErasureTest {
  private static final Namespace NS = Namespace.of("acme");

  private TestDatabase db;
  private PostgresJournal journal;

  @BeforeEach
  void open() {
    db = TestDatabase.create("loci_jerase");
    journal = PostgresJournal.open(db.url());
    for (int i = 1; i <= 6; i++) {
      String id = i % 2 == 0 ? "rec-secret" : "rec-other-" + i;
      journal.appendDurably(batch("{\"id\":\"" + id + "\",\"text\":\"TEXT-" + i + "\"}"));
    }
  }

  @AfterEach
  void close() throws Exception {
    journal.close();
    db.close();
  }

  private static Batch batch(String json) {
    return new Batch(
        Instant.parse("2026-01-02T03:04:05Z"), NS, "t", List.of(Event.ofJson("trace.added", json)));
  }

  /** Replaces the text of every event naming rec-secret. */
  private static final Function<JournalEntry, Optional<List<Event>>> SCRUB =
      entry -> {
        String data = entry.events().get(0).data().toString();
        if (!data.contains("rec-secret") || data.contains("ERASED")) {
          return Optional.empty();
        }
        return Optional.of(
            List.of(Event.ofJson("trace.added", "{\"id\":\"rec-secret\",\"text\":\"ERASED\"}")));
      };

  private void archiveThroughThree() throws SQLException {
    sql(
        "INSERT INTO loci_batch_archive SELECT seq, ns, line, written_at FROM loci_batch WHERE seq <= 3");
    sql("DELETE FROM loci_batch WHERE seq <= 3");
    sql("UPDATE loci_journal SET archived = 3");
  }

  @Test
  void rewritesTheRowsInBothTables_withNewChecksums_andAppendsAfterTheHead() throws Exception {
    archiveThroughThree();
    long[] heads = {-1};

    Journal.Rewritten done =
        journal.rewriteAndAppend(
            Set.of("rec-secret"),
            SCRUB,
            head -> {
              heads[0] = head;
              return Optional.of(batch("{\"id\":\"erasure\"}"));
            });

    assertThat(heads[0]).isEqualTo(6);
    assertThat(done).isEqualTo(new Journal.Rewritten(3, 7));
    assertThat(journal.lastSeq()).isEqualTo(7);
    List<String> texts = new ArrayList<>();
    journal.read(
        1, e -> texts.add(e.events().get(0).data().toString()), d -> texts.add("DAMAGE " + d));
    assertThat(texts).hasSize(7).noneMatch(t -> t.contains("DAMAGE"));
    assertThat(String.join("\n", texts))
        .doesNotContain("TEXT-2", "TEXT-4", "TEXT-6")
        .contains("TEXT-1", "TEXT-5");
    assertThat(journal.appendDurably(batch("{\"id\":\"next\"}"))).isEqualTo(8);
  }

  @Test
  void nothingDecided_changesNothing() throws Exception {
    List<byte[]> before = lines();

    Journal.Rewritten done =
        journal.rewriteAndAppend(Set.of("rec-secret"), SCRUB, head -> Optional.empty());

    assertThat(done).isEqualTo(new Journal.Rewritten(0, 0));
    assertThat(lines()).containsExactlyElementsOf(before);
  }

  @Test
  void aScrubThatFailsAfterRowsWereUpdated_leavesEveryRowAsItWas() throws Exception {
    archiveThroughThree(); // the archive's rows are updated first, then the table's fail
    List<byte[]> before = lines();
    int[] calls = {0};

    assertThatThrownBy(
            () ->
                journal.rewriteAndAppend(
                    Set.of(),
                    entry -> {
                      if (++calls[0] == 5) {
                        throw new IllegalStateException("scrub failed");
                      }
                      return SCRUB.apply(entry);
                    },
                    head -> Optional.of(batch("{\"id\":\"erasure\"}"))))
        .hasMessage("scrub failed");

    assertThat(lines()).containsExactlyElementsOf(before);
    assertThat(journal.appendDurably(batch("{\"id\":\"next\"}"))).isEqualTo(7);
  }

  @Test
  void aDamagedRow_isKeptAsItIs_andStillReported() throws Exception {
    sql(
        "UPDATE loci_batch SET line = convert_to('{\"id\":\"rec-secret\" torn', 'UTF8') WHERE seq = 2");

    Journal.Rewritten done =
        journal.rewriteAndAppend(
            Set.of("rec-secret"), SCRUB, head -> Optional.of(batch("{\"id\":\"erasure\"}")));

    assertThat(done.batches()).isEqualTo(2);
    assertThat(new String(lines().get(1), StandardCharsets.UTF_8)).endsWith("torn");
    assertThat(PostgresJournal.verify(PostgresUrl.parse(db.url())).damage())
        .singleElement()
        .satisfies(d -> assertThat(d.seq()).hasValue(2));
  }

  private List<byte[]> lines() throws SQLException {
    List<byte[]> out = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT seq, line FROM loci_batch_archive UNION ALL"
                    + " SELECT seq, line FROM loci_batch ORDER BY seq");
        ResultSet r = s.executeQuery()) {
      while (r.next()) {
        out.add(r.getBytes(2));
      }
    }
    return out;
  }

  private void sql(String statement) throws SQLException {
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement(statement)) {
      s.execute();
    }
  }
}
