package dev.loci.subjects;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.subjects.internal.SubjectLayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Tampers with a subject's audit log the ways an insider would, with the process stopped, and
 * checks that verification names the damage each time, while an untouched log verifies.
 */
class AuditTamperTest {
  static final Namespace NS = Namespace.of("acme.hr");
  static final String ALICE = "subj-alice-q7x";

  @TempDir Path dir;

  enum Tamper {
    EDIT_ONE_BYTE(
        lines -> {
          String l = lines.get(1);
          int at = l.indexOf("\"ns\":\"acme.hr\"") + 7;
          lines.set(1, l.substring(0, at) + "X" + l.substring(at + 1));
          return lines;
        }),
    DELETE_A_MIDDLE_LINE(
        lines -> {
          lines.remove(1);
          return lines;
        }),
    SWAP_TWO_LINES(
        lines -> {
          Collections.swap(lines, 1, 2);
          return lines;
        }),
    TRUNCATE_THE_LAST_LINE(
        lines -> {
          lines.remove(lines.size() - 1);
          return lines;
        }),
    INSERT_A_COPY(
        lines -> {
          lines.add(2, lines.get(1));
          return lines;
        }),
    DROP_THE_WHOLE_LOG(lines -> new ArrayList<>());

    final UnaryOperator<List<String>> change;

    Tamper(UnaryOperator<List<String>> change) {
      this.change = change;
    }
  }

  private Path log() {
    return dir.resolve("subjects").resolve("audit").resolve(SubjectLayer.ref(ALICE) + ".jsonl");
  }

  /**
   * Writes four entries about Alice, takes a snapshot (so the journal before it is not replayed on
   * open and cannot rebuild the log) and closes.
   */
  private void seed() {
    seed(true);
  }

  private void seed(boolean snapshot) {
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      for (int i = 0; i < 4; i++) {
        loci.traces().add(NS, "{\"subject_ids\":[\"" + ALICE + "\"],\"i\":" + i + "}", List.of());
      }
      if (snapshot) {
        loci.snapshot();
      }
    }
  }

  private AuditVerification verify() {
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      return Subjects.of(loci).verifyAudit(Optional.empty());
    }
  }

  @Test
  void untouched_verifies() {
    seed();
    AuditVerification v = verify();
    assertThat(v.problems()).isEmpty();
    assertThat(v.logs()).isEqualTo(1);
    assertThat(v.entries()).isEqualTo(4);
  }

  @ParameterizedTest
  @EnumSource(Tamper.class)
  void tampered_failsVerification_namingTheLog(Tamper tamper) throws IOException {
    seed();
    List<String> lines = new ArrayList<>(Files.readAllLines(log(), UTF_8));
    assertThat(lines).hasSize(4);
    List<String> changed = tamper.change.apply(lines);
    Files.writeString(log(), changed.isEmpty() ? "" : String.join("\n", changed) + "\n", UTF_8);

    AuditVerification v = verify();

    assertThat(v.ok()).isFalse();
    assertThat(v.problems()).singleElement().asString().startsWith(SubjectLayer.ref(ALICE));
  }

  @Test
  void aLogCutShortWhereTheJournalIsStillReplayed_isRebuiltByteForByte() throws IOException {
    seed(false);
    byte[] whole = Files.readAllBytes(log());
    List<String> lines = Files.readAllLines(log(), UTF_8);
    Files.writeString(log(), lines.get(0) + "\n", UTF_8);

    assertThat(verify().problems()).isEmpty();
    assertThat(Files.readAllBytes(log())).isEqualTo(whole);
  }

  @Test
  void aReplacedKey_failsVerification() throws IOException {
    seed();
    Path keys = dir.resolve("keys").resolve("audit.keys");
    Files.writeString(keys, "k1 " + Base64.getEncoder().encodeToString(new byte[32]) + "\n", UTF_8);

    assertThat(verify().problems()).singleElement().asString().contains("fails its mac");
  }

  @Test
  void aLogRewrittenWithAForgedKeyId_failsVerification() throws IOException {
    seed();
    String text = Files.readString(log(), UTF_8).replace("\"key\":\"k1\"", "\"key\":\"k9\"");
    Files.writeString(log(), text, UTF_8);

    assertThat(verify().problems()).singleElement().asString().contains("unknown key 'k9'");
  }

  @Test
  void exportRequiresAHolder_andTheHolderIsInTheLog() {
    seed();
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      List<String> lines = Subjects.of(loci).auditLog(new LegalCapability("court-7"), NS, ALICE);
      assertThat(lines.get(lines.size() - 1)).contains("legal:court-7");
    }
  }
}
