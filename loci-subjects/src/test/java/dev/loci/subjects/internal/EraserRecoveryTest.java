package dev.loci.subjects.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.subjects.HeldRecord;
import dev.loci.subjects.SubjectManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An erasure cut short at each step between its durable intent and its record is run to the end
 * when the directory is next opened.
 */
class EraserRecoveryTest {
  static final Namespace NS = Namespace.of("acme.hr");
  static final String ALICE = "subj-alice-q7x";

  @TempDir Path dir;

  private Loci open() {
    return Loci.builder().dataDir(dir).segmentBytes(2048).snapshotAfter(0).open();
  }

  /** Seeds Alice's traces and a stranger's, and returns the intent that erases Alice's. */
  private Eraser.Intent seed(Loci loci) {
    for (int i = 0; i < 20; i++) {
      loci.traces()
          .add(NS, "{\"subject_ids\":[\"" + ALICE + "\"],\"note\":\"ALPHA-" + i + "\"}", List.of());
      loci.traces().add(NS, "{\"note\":\"BRAVO-" + i + "\"}", List.of());
    }
    loci.snapshot();
    SubjectLayer layer = loci.layer(SubjectLayer.class);
    SubjectManifest m =
        loci.executor().read(() -> layer.manifest(ALICE, NamespaceScope.of("acme.*")));
    assertThat(m.records()).hasSize(20);
    List<String> keys =
        m.records().stream()
            .map(r -> SubjectLayer.qualified(r.layer(), r.namespace(), r.id()))
            .toList();
    return new Eraser.Intent(
        "01a20000-0000-7000-8000-000000000001",
        Optional.of(SubjectLayer.ref(ALICE)),
        "erased",
        "dpo",
        "request 9",
        NS,
        keys);
  }

  private static Map<String, Set<String>> byLayer(Eraser.Intent intent) {
    Map<String, Set<String>> out = new TreeMap<>();
    for (String q : intent.records()) {
      int bar = q.indexOf('|');
      out.computeIfAbsent(q.substring(0, bar), k -> new TreeSet<>()).add(q.substring(bar + 1));
    }
    return out;
  }

  @Test
  void cutAfterTheIntent_isRunOnOpen() throws Exception {
    try (Loci loci = open()) {
      Eraser.write(SubjectLayer.intentDir(dir), seed(loci));
    }
    assertErasedOnReopen();
  }

  @Test
  void cutAfterTheJournalRewriteBeforeItsRecord_isRecordedOnOpen() throws Exception {
    try (Loci loci = open()) {
      Eraser.Intent intent = seed(loci);
      Eraser.write(SubjectLayer.intentDir(dir), intent);
      loci.eraseRecords(byLayer(intent));
    }
    assertErasedOnReopen();
  }

  @Test
  void cutAfterItsRecordBeforeTheIntentWasDeleted_runsHarmlesslyOnce() throws Exception {
    try (Loci loci = open()) {
      Eraser.Intent intent = seed(loci);
      Eraser.write(SubjectLayer.intentDir(dir), intent);
      loci.eraseRecords(byLayer(intent));
      loci.executor()
          .execute(NS, "t", ctx -> loci.layer(SubjectLayer.class).decideErased(intent, false));
    }
    long audit;
    try (Loci loci = open()) {
      audit = manifest(loci).auditEntries();
    }
    assertErasedOnReopen();
    try (Loci loci = open()) {
      assertThat(manifest(loci).auditEntries()).as("no second erasure entry").isEqualTo(audit);
    }
  }

  private static SubjectManifest manifest(Loci loci) {
    SubjectLayer layer = loci.layer(SubjectLayer.class);
    return loci.executor().read(() -> layer.manifest(ALICE, NamespaceScope.of("acme.*")));
  }

  private void assertErasedOnReopen() throws Exception {
    try (Loci loci = open()) {
      SubjectManifest m = manifest(loci);
      assertThat(m.records()).extracting(HeldRecord::id).isEmpty();
      assertThat(m.erasure()).isPresent();
      assertThat(loci.traces().count(NamespaceScope.exactly(NS))).isEqualTo(40);
    }
    try (var files = Files.list(SubjectLayer.intentDir(dir))) {
      assertThat(files.toList()).as("intents left").isEmpty();
    }
    assertThat(Loci.verify(dir).ok()).isTrue();
    boolean bravo = false;
    try (var files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        bravo |=
            Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1).contains("BRAVO-19");
        assertThat(new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1))
            .as("%s", f)
            .doesNotContain("ALPHA-")
            .doesNotContain(ALICE);
      }
    }
    assertThat(bravo).as("the stranger's traces are still on disk").isTrue();
  }
}
