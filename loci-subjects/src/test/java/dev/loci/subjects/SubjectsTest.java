package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Trace;
import dev.loci.VerifyReport;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryType;
import dev.loci.pathway.PathwayMemory;
import dev.loci.pathway.PathwayTrace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Subjects end to end on a real data directory: manifests across the trace, pathway and governed
 * layers, the audit log, erasure that leaves no byte of the subject in any file, retention.
 */
class SubjectsTest {
  static final Namespace NS = Namespace.of("acme.hr");
  static final Namespace OTHER = Namespace.of("acme.sales");
  static final LegalCapability LEGAL = new LegalCapability("dpo@acme");
  static final String ALICE = "subj-alice-q7x";
  static final String BOB = "subj-bob-k2m";

  @TempDir Path dir;
  Loci loci;
  Subjects subjects;

  @BeforeEach
  void open() {
    reopen();
  }

  @AfterEach
  void close() {
    if (loci != null) {
      loci.close();
    }
  }

  void reopen() {
    if (loci != null) {
      loci.close();
    }
    loci = Loci.builder().dataDir(dir).segmentBytes(4096).snapshotAfter(0).open();
    subjects = Subjects.of(loci);
  }

  /** What {@link #seed} wrote about each subject. */
  record Seeded(
      Trace aliceTrace,
      Trace aliceRevision,
      PathwayTrace alicePath,
      Memory aliceMemory,
      Trace bobTrace,
      Memory bobMemory) {}

  /** Writes records about Alice and Bob in every layer that can name a subject. */
  Seeded seed() {
    Trace a1 =
        loci.traces()
            .add(
                NS,
                "{\"subject_ids\":[\"" + ALICE + "\"],\"note\":\"ALPHA-SECRET-1 lives in Leeds\"}",
                List.of("hr"));
    loci.traces()
        .update(
            NS,
            a1.uid(),
            "{\"subject_ids\":[\"" + ALICE + "\"],\"note\":\"ALPHA-SECRET-2 moved to York\"}");
    // a revision inherits its predecessor's subject without naming it again
    Trace a2 =
        loci.traces().revise(NS, a1.uid(), "{\"note\":\"ALPHA-SECRET-3 on leave\"}", List.of());
    PathwayTrace p =
        PathwayMemory.of(loci)
            .insertJson(
                NS,
                "{\"task_class\":\"hr.review\",\"file_path\":\"cases/17\","
                    + "\"reducer_summary\":\"ALPHA-SECRET-4 asked for a raise\","
                    + "\"final_verdict\":\"ALPHA-SECRET-5 approved\","
                    + "\"subject_ids\":[\""
                    + ALICE
                    + "\"]}")
            .trace();
    GovernedMemory gov = GovernedMemory.of(loci);
    Memory m =
        gov.propose(
                OTHER,
                MemoryDraft.of(MemoryType.PREFERENCE, "ALPHA-SECRET-6 prefers tea", "agent-7")
                    .withSlot("drink")
                    .withSubjects(List.of(ALICE)))
            .memory();
    Trace b =
        loci.traces()
            .add(NS, "{\"subject_ids\":[\"" + BOB + "\"],\"note\":\"BRAVO-KEEP-1\"}", List.of());
    Memory bm =
        gov.propose(
                OTHER,
                MemoryDraft.of(MemoryType.PREFERENCE, "BRAVO-KEEP-2 prefers coffee", "agent-7")
                    .withSlot("drink")
                    .withSubjects(List.of(BOB)))
            .memory();
    return new Seeded(a1, a2, p, m, b, bm);
  }

  @Test
  void manifest_listsEveryRecordAndVersionThatNamesTheSubject_acrossLayersAndNamespaces() {
    Seeded s = seed();

    SubjectManifest m = subjects.manifest(ALICE, NamespaceScope.of("acme.*"));

    assertThat(m.records())
        .extracting(HeldRecord::id)
        .containsExactly(
            s.aliceTrace().uid(),
            s.aliceRevision().uid(),
            s.alicePath().traceUid(),
            s.aliceMemory().id(),
            "memory:" + s.aliceMemory().id()); // the memory's recall node, written with it
    assertThat(m.countsByKind())
        .containsEntry("trace", 2)
        .containsEntry("pathway_trace", 1)
        .containsEntry("memory", 1)
        .containsEntry("node", 1);
    assertThat(m.namespaces()).containsExactly(NS, OTHER);
    HeldRecord first = m.records().get(0);
    assertThat(first.versions()).as("the add and the update").hasSize(2);
    assertThat(m.erasure()).isEmpty();
    assertThat(m.auditEntries()).isGreaterThanOrEqualTo(4);

    SubjectManifest narrow = subjects.manifest(ALICE, NamespaceScope.exactly(OTHER));
    assertThat(narrow.records())
        .extracting(HeldRecord::id)
        .containsExactly(s.aliceMemory().id(), "memory:" + s.aliceMemory().id());

    assertThat(subjects.manifest("nobody", NamespaceScope.of("acme.*")).records()).isEmpty();

    reopen();
    assertThat(subjects.manifest(ALICE, NamespaceScope.of("acme.*"))).isEqualTo(m);
    loci.snapshot();
    reopen();
    assertThat(subjects.manifest(ALICE, NamespaceScope.of("acme.*"))).isEqualTo(m);
  }

  @Test
  void erase_leavesNoByteOfTheSubjectInAnyFile_andKeepsEveryoneElse() throws IOException {
    Seeded s = seed();
    loci.snapshot(); // a snapshot that holds Alice must be replaced, not kept
    loci.traces().add(NS, "\"after the snapshot\"", List.of());

    ErasureReport report =
        subjects.erase(LEGAL, NamespaceScope.of("acme.*"), NS, ALICE, "GDPR art. 17 request 4411");

    assertThat(report.records()).isEqualTo(5);
    assertThat(report.batchesRewritten()).isGreaterThanOrEqualTo(4);
    assertErased(s);

    loci.close();
    loci = null;
    assertThat(filesContaining("ALPHA-SECRET")).isEmpty();
    assertThat(filesContaining(ALICE)).as("files holding the subject id").isEmpty();
    assertThat(filesContaining("BRAVO-KEEP-1")).isNotEmpty();
    VerifyReport verify = Loci.verify(dir);
    assertThat(verify.ok()).as("verify: %s", verify.damage()).isTrue();

    reopen();
    assertErased(s);
    assertThat(subjects.verifyAudit(Optional.empty()).problems()).isEmpty();
  }

  private void assertErased(Seeded s) {
    SubjectManifest m = subjects.manifest(ALICE, NamespaceScope.of("acme.*"));
    assertThat(m.records()).isEmpty();
    assertThat(m.erasure()).hasValueSatisfying(e -> assertThat(e.records()).isEqualTo(5));
    assertThat(m.erasure().get().holder()).isEqualTo("dpo@acme");

    // ids, chains and history stay; content goes
    Trace t = loci.traces().get(NS, s.aliceTrace().uid());
    assertThat(t.content()).doesNotContain("ALPHA");
    assertThat(loci.traces().history(NS, s.aliceRevision().uid(), LEGAL))
        .extracting(Trace::uid)
        .containsExactlyInAnyOrder(s.aliceTrace().uid(), s.aliceRevision().uid());
    PathwayTrace p = PathwayMemory.of(loci).get(NS, s.alicePath().traceUid(), LEGAL);
    assertThat(p.reducerSummary()).doesNotContain("ALPHA");
    assertThat(p.subjectIds()).isEmpty();
    assertThat(p.taskClass()).isEqualTo("hr.review");
    Memory mem = GovernedMemory.of(loci).get(OTHER, s.aliceMemory().id());
    assertThat(mem.content()).doesNotContain("ALPHA");

    // Bob is untouched
    assertThat(loci.traces().get(NS, s.bobTrace().uid()).content()).contains("BRAVO-KEEP-1");
    assertThat(GovernedMemory.of(loci).get(OTHER, s.bobMemory().id()).content())
        .isEqualTo("BRAVO-KEEP-2 prefers coffee");
    assertThat(subjects.manifest(BOB, NamespaceScope.of("acme.*")).records()).hasSize(3);
  }

  @Test
  void erase_reachesCapturedInteractionsAndTheCandidatesExtractedFromThem() throws IOException {
    GovernedMemory gov = GovernedMemory.of(loci);
    dev.loci.govern.Extraction x =
        gov.capture(
            OTHER,
            "I prefer ALPHA-SECRET-9 tea.",
            "alice",
            Optional.empty(),
            List.of(ALICE),
            dev.loci.govern.spi.ExtractionTarget.MEMORY);
    String interaction = x.interaction().orElseThrow().id();
    Memory extracted = x.candidates().get(0).memory().orElseThrow();
    assertThat(extracted.subjectIds()).containsExactly(ALICE);
    assertThat(subjects.manifest(ALICE, NamespaceScope.of("acme.*")).records())
        .extracting(HeldRecord::id)
        .contains(interaction, extracted.id());
    loci.snapshot();

    subjects.erase(LEGAL, NamespaceScope.of("acme.*"), NS, ALICE, "GDPR art. 17 request 4412");

    assertThat(GovernedMemory.of(loci).interaction(OTHER, interaction).text())
        .doesNotContain("ALPHA");
    assertThat(GovernedMemory.of(loci).get(OTHER, extracted.id()).content())
        .doesNotContain("ALPHA");
    loci.close();
    loci = null;
    assertThat(filesContaining("ALPHA-SECRET-9")).isEmpty();
    reopen();
    assertThat(GovernedMemory.of(loci).interaction(OTHER, interaction).text())
        .doesNotContain("ALPHA");
  }

  @Test
  void erase_afterwardsNewRecordsAboutTheSubjectAreHeldAgain_andErasingTwiceIsHarmless() {
    seed();
    subjects.erase(LEGAL, NamespaceScope.of("acme.*"), NS, ALICE, "request 1");
    ErasureReport again =
        subjects.erase(LEGAL, NamespaceScope.of("acme.*"), NS, ALICE, "request 1");
    assertThat(again.records()).isZero();

    Trace fresh =
        loci.traces().add(NS, "{\"subject_ids\":[\"" + ALICE + "\"],\"note\":\"new\"}", List.of());
    assertThat(subjects.manifest(ALICE, NamespaceScope.of("acme.*")).records())
        .extracting(HeldRecord::id)
        .containsExactly(fresh.uid());
  }

  @Test
  void erase_underALegalHold_isRefusedAndChangesNothing_untilTheHoldIsLifted() {
    Seeded s = seed();
    subjects.setPolicy(LEGAL, NS, ALICE, policy(OptionalInt.empty(), true, Optional.empty()));
    long seq = loci.lastSeq();

    assertThatThrownBy(
            () -> subjects.erase(LEGAL, NamespaceScope.of("acme.*"), NS, ALICE, "request 2"))
        .isInstanceOf(dev.loci.ConflictException.class)
        .hasMessageContaining("legal hold");
    assertThat(loci.lastSeq()).isEqualTo(seq);
    assertThat(loci.traces().get(NS, s.aliceTrace().uid()).content()).contains("ALPHA");

    subjects.setPolicy(LEGAL, NS, ALICE, SubjectPolicy.NONE);
    assertThat(subjects.erase(LEGAL, NamespaceScope.of("acme.*"), NS, ALICE, "request 2").records())
        .isEqualTo(5);
  }

  @Test
  void erase_limitedToTheScope_keepsTheSubjectsRecordsOutsideIt() {
    Seeded s = seed();
    subjects.erase(LEGAL, NamespaceScope.exactly(OTHER), OTHER, ALICE, "sales only");

    assertThat(GovernedMemory.of(loci).get(OTHER, s.aliceMemory().id()).content())
        .doesNotContain("ALPHA");
    assertThat(loci.traces().get(NS, s.aliceTrace().uid()).content()).contains("ALPHA-SECRET-2");
    assertThat(subjects.manifest(ALICE, NamespaceScope.of("acme.*")).records()).hasSize(3);
  }

  @Test
  void badInput_namesTheField_andWritesNothing() {
    seed();
    long seq = loci.lastSeq();
    assertThatThrownBy(() -> subjects.erase(LEGAL, NamespaceScope.of("acme.*"), NS, ALICE, " "))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("reason"));
    assertThatThrownBy(() -> subjects.manifest("a\nb", NamespaceScope.of("acme.*")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("subject_id"));
    assertThatThrownBy(
            () -> new SubjectPolicy(OptionalInt.of(0), false, Optional.empty(), Optional.empty()))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("retain_days"));
    assertThatThrownBy(
            () ->
                subjects.setNamespacePolicy(
                    LEGAL,
                    NS,
                    new SubjectPolicy(
                        OptionalInt.empty(), true, Optional.empty(), Optional.empty())))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("legal_hold"));
    assertThat(loci.lastSeq()).isEqualTo(seq);
    assertThat(subjects.manifest(ALICE, NamespaceScope.of("acme.*")).records()).hasSize(5);
  }

  @Test
  void sweep_erasesWhatIsPastRetention_aLegalHoldWins_andADryRunChangesNothing() {
    Seeded s = seed();
    subjects.setNamespacePolicy(
        LEGAL, Namespace.of("acme"), policy(OptionalInt.of(30), false, Optional.empty()));
    subjects.setPolicy(LEGAL, OTHER, BOB, policy(OptionalInt.empty(), true, Optional.empty()));
    Instant later = Instant.now().plus(Duration.ofDays(31));

    assertThat(subjects.namespacePolicy(NS).retainDays()).hasValue(30);
    assertThat(subjects.sweep(Instant.now(), false).expired()).isEmpty();

    long seq = loci.lastSeq();
    SweepReport dry = subjects.sweep(later, true);
    assertThat(dry.expired()).hasSize(5);
    assertThat(dry.held())
        .as("Bob's three records (his memory's recall node too), on hold")
        .isEqualTo(3);
    assertThat(loci.lastSeq()).isEqualTo(seq);

    SweepReport done = subjects.sweep(later, false);
    assertThat(done.expired()).hasSize(5);
    assertThat(loci.traces().get(NS, s.aliceTrace().uid()).content()).doesNotContain("ALPHA");
    assertThat(loci.traces().get(NS, s.bobTrace().uid()).content()).contains("BRAVO-KEEP-1");
    assertThat(subjects.manifest(ALICE, NamespaceScope.of("acme.*")).records()).isEmpty();
    assertThat(subjects.sweep(later, true).expired()).isEmpty();

    // the hold lifted, Bob's records go too
    subjects.setPolicy(LEGAL, OTHER, BOB, SubjectPolicy.NONE);
    assertThat(subjects.sweep(later, false).expired()).hasSize(3);
    assertThat(loci.traces().get(NS, s.bobTrace().uid()).content()).doesNotContain("BRAVO");
  }

  @Test
  void sweep_aSubjectsOwnShorterRetentionApplies() {
    seed();
    subjects.setPolicy(LEGAL, NS, ALICE, policy(OptionalInt.of(7), false, Optional.empty()));
    SweepReport r = subjects.sweep(Instant.now().plus(Duration.ofDays(8)), true);
    assertThat(r.expired()).hasSize(5).allSatisfy(e -> assertThat(e.rule()).isEqualTo("subject"));
  }

  @Test
  void auditLog_recordsWritesLegalReadsPolicyAndTheExportItself_andVerifies() {
    Seeded s = seed();
    loci.traces().history(NS, s.aliceRevision().uid(), LEGAL);
    subjects.setPolicy(
        LEGAL, NS, ALICE, policy(OptionalInt.empty(), false, Optional.of("healthcare")));

    List<String> log = subjects.auditLog(LEGAL, NS, ALICE);

    assertThat(log).hasSizeGreaterThanOrEqualTo(7);
    assertThat(String.join("\n", log))
        .contains("\"action\":\"trace.added\"")
        .contains("legal_read:trace.history")
        .contains("\"actor\":\"legal:dpo@acme\"")
        .contains("policy_set")
        .doesNotContain("ALPHA-SECRET")
        .doesNotContain(ALICE);
    assertThat(log.get(log.size() - 1)).contains("legal_read:audit_export");
    assertThat(subjects.verifyAudit(Optional.of(ALICE)).ok()).isTrue();
    assertThat(subjects.manifest(ALICE, NamespaceScope.of("acme.*")).vertical())
        .contains("healthcare");

    // replaying the journal from the start makes no entry twice
    reopen();
    assertThat(subjects.auditLog(LEGAL, NS, ALICE))
        .hasSize(log.size() + 1)
        .startsWith(log.toArray(String[]::new));
    assertThat(subjects.verifyAudit(Optional.empty()).ok()).isTrue();
  }

  @Test
  void rotateAuditKey_newEntriesAreSignedByTheNewKey_andEveryChainStillVerifies() {
    seed();
    String key = subjects.rotateAuditKey(LEGAL);
    loci.traces().add(NS, "{\"subject_ids\":[\"" + ALICE + "\"]}", List.of());

    List<String> log = subjects.auditLog(LEGAL, NS, ALICE);
    assertThat(log.get(log.size() - 1)).contains("\"key\":\"" + key + "\"");
    assertThat(log).anySatisfy(l -> assertThat(l).contains("key_rotated"));
    AuditVerification v = subjects.verifyAudit(Optional.empty());
    assertThat(v.problems()).isEmpty();
    assertThat(v.logs()).isEqualTo(2);
  }

  static SubjectPolicy policy(OptionalInt days, boolean hold, Optional<String> vertical) {
    return new SubjectPolicy(days, hold, vertical, Optional.empty());
  }

  /** Every file under the data directory whose bytes contain {@code text}. */
  List<Path> filesContaining(String text) throws IOException {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    List<Path> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (indexOf(Files.readAllBytes(f), needle) >= 0) {
          out.add(dir.relativize(f));
        }
      }
    }
    return out;
  }

  static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
