package dev.loci.subjects.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Trace;
import dev.loci.subjects.HeldRecord;
import dev.loci.subjects.SubjectManifest;
import dev.loci.subjects.Subjects;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The subject layer's index through the engine: shared records, snapshots, the id cache. */
class SubjectLayerIndexTest {
  static final Namespace NS = Namespace.of("acme.hr");
  static final NamespaceScope ALL = NamespaceScope.of("acme.*");
  static final String ALICE = "subj-alice-idx";
  static final String BOB = "subj-bob-idx";

  @TempDir Path dir;
  Loci loci;

  @BeforeEach
  void open() {
    reopen();
  }

  @AfterEach
  void close() {
    loci.close();
  }

  void reopen() {
    if (loci != null) {
      loci.close();
    }
    loci = Loci.builder().dataDir(dir).snapshotAfter(0).open();
  }

  static String naming(String note, String... ids) {
    StringBuilder b = new StringBuilder("{\"subject_ids\":[");
    for (int i = 0; i < ids.length; i++) {
      b.append(i == 0 ? "\"" : ",\"").append(ids[i]).append('"');
    }
    return b.append("],\"note\":\"").append(note).append("\"}").toString();
  }

  SubjectManifest manifest(String id) {
    return Subjects.of(loci).manifest(id, ALL);
  }

  @Test
  void aRecordNamingTwoSubjects_givesEachTheVersionsFromWhenItWasNamed_acrossRestarts() {
    Trace t = loci.traces().add(NS, naming("first", ALICE), List.of());
    loci.traces().update(NS, t.uid(), naming("second", ALICE, BOB));
    Trace rev = loci.traces().revise(NS, t.uid(), "{\"note\":\"third\"}", List.of());

    SubjectManifest alice = manifest(ALICE);
    SubjectManifest bob = manifest(BOB);

    assertThat(alice.records()).extracting(HeldRecord::id).containsExactly(t.uid(), rev.uid());
    assertThat(bob.records()).extracting(HeldRecord::id).containsExactly(t.uid(), rev.uid());
    List<Long> aliceVersions = alice.records().get(0).versions();
    assertThat(aliceVersions).hasSize(2);
    assertThat(bob.records().get(0).versions())
        .as("Bob was named by the update only")
        .containsExactly(aliceVersions.get(1));
    assertThat(bob.records().get(1).versions())
        .as("the revision inherits both")
        .isEqualTo(alice.records().get(1).versions())
        .hasSize(1);

    reopen(); // replayed from the journal
    assertThat(manifest(ALICE)).isEqualTo(alice);
    assertThat(manifest(BOB)).isEqualTo(bob);
    loci.snapshot();
    reopen(); // restored from the snapshot
    assertThat(manifest(ALICE)).isEqualTo(alice);
    assertThat(manifest(BOB)).isEqualTo(bob);

    loci.traces().update(NS, rev.uid(), "{\"note\":\"fourth\"}");
    assertThat(manifest(BOB).records().get(1).versions()).hasSize(2);
    assertThat(manifest(ALICE).records().get(1).versions())
        .isEqualTo(manifest(BOB).records().get(1).versions());
  }

  @Test
  void erasure_forgetsEverySubjectIdTheIndexRemembered_andTheSubjectIsFoundAgainAfterwards() {
    loci.traces().add(NS, naming("one", ALICE), List.of());
    loci.traces().add(NS, naming("two", BOB), List.of());
    SubjectLayer layer = loci.layer(SubjectLayer.class);
    assertThat(loci.executor().read(layer::rememberedIds)).isEqualTo(2);

    Subjects.of(loci).erase(new LegalCapability("dpo"), ALL, NS, ALICE, "request 1");

    assertThat(loci.executor().read(layer::rememberedIds)).isZero();
    SubjectManifest erased = manifest(ALICE);
    assertThat(erased.records()).isEmpty();
    assertThat(erased.erasure()).isPresent();

    Trace again = loci.traces().add(NS, naming("three", ALICE), List.of());

    SubjectManifest after = manifest(ALICE);
    assertThat(after.records()).extracting(HeldRecord::id).containsExactly(again.uid());
    assertThat(after.erasure()).as("the same subject: its erasure is kept").isPresent();
    assertThat(after.auditEntries()).isGreaterThan(erased.auditEntries());
    assertThat(manifest(BOB).records()).hasSize(1);
    assertThat(Subjects.of(loci).verifyAudit(java.util.Optional.empty()).ok()).isTrue();
  }
}
