package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.ConflictException;
import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.NotFoundException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lifecycle of spec section 5 and the access patterns of section 6, on a real data dir. */
class PathwayMemoryTest {
  private static final LegalCapability LEGAL = new LegalCapability("test");
  static final Namespace NS = Namespace.of("acme.scrum");
  static final Instant T0 = Instant.parse("2026-11-22T10:00:00.123456Z");
  static final String FILE = "crates/queryd/src/service.rs";

  @TempDir Path dir;
  Loci loci;
  PathwayMemory pathways;

  @BeforeEach
  void open() {
    loci = Loci.builder().dataDir(dir).clock(Clock.fixed(T0, ZoneOffset.UTC)).open();
    pathways = PathwayMemory.of(loci);
  }

  @AfterEach
  void close() {
    loci.close();
  }

  void reopen() {
    loci.close();
    open();
  }

  static PathwayTrace.Builder draft(String taskClass, String file, String signal) {
    return PathwayTrace.builder(taskClass, file)
        .signalClass(signal)
        .ladderAttempts(List.of(new LadderAttempt(0, "qwen", 800, true, Optional.empty())))
        .reducerSummary("looks fine")
        .finalVerdict("accepted");
  }

  PathwayTrace insert(String taskClass, String file, String signal) {
    return pathways.insert(NS, draft(taskClass, file, signal)).trace();
  }

  static AbstractStringAssert<?> fieldOf(Runnable action) {
    return assertThat(catchField(action));
  }

  private static String catchField(Runnable action) {
    try {
      action.run();
    } catch (InvalidRequestException e) {
      return e.field();
    } catch (NotFoundException e) {
      return e.field();
    }
    throw new AssertionError("expected an error naming a field");
  }

  // ---------------------------------------------------------------- 5.1 insert

  @Test
  void insert_assignsUuidV7VersionOneTimestampVectorAndZeroCounters() {
    PathwayTrace t = insert("scrum_review", FILE, "LOOPING");

    UUID uid = UUID.fromString(t.traceUid());
    assertThat(uid.version()).isEqualTo(7);
    assertThat(t.version()).isEqualTo(1);
    assertThat(t.createdAt()).isEqualTo(T0);
    assertThat(t.pathwayId())
        .isEqualTo(PathwayIdentity.pathwayId("scrum_review", FILE, Optional.of("LOOPING")));
    assertThat(t.pathwayVec()).isEqualTo(PathwayIdentity.pathwayVec(t));
    assertThat(t.replayCount()).isZero();
    assertThat(t.replaysSucceeded()).isZero();
    assertThat(t.retired()).isFalse();
    assertThat(t.parentTraceUid()).isEmpty();
    assertThat(pathways.get(NS, t.traceUid())).isEqualTo(t);
  }

  @Test
  void insert_ignoresAssignedFieldsTheDraftHolds() {
    PathwayTrace t =
        pathways
            .insert(
                NS,
                draft("scrum_review", FILE, null)
                    .traceUid("mine")
                    .version(9)
                    .replayCount(7)
                    .retired(true)
                    .createdAt(Instant.EPOCH))
            .trace();
    assertThat(t.traceUid()).isNotEqualTo("mine");
    assertThat(t.version()).isEqualTo(1);
    assertThat(t.replayCount()).isZero();
    assertThat(t.retired()).isFalse();
    assertThat(t.createdAt()).isEqualTo(T0);
  }

  @Test
  void insert_samePathwayTwice_appendsToOneBucket() {
    PathwayTrace a = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace b = insert("scrum_review", "crates/queryd/src/other.rs", "LOOPING");

    assertThat(b.pathwayId()).isEqualTo(a.pathwayId());
    assertThat(pathways.pathway(NamespaceScope.exactly(NS), a.pathwayId(), false))
        .containsExactly(a, b);
    assertThat(pathways.stats(NamespaceScope.exactly(NS)).pathways()).isEqualTo(1);
  }

  @Test
  void insert_badInput_namesTheFieldAndWritesNothing() {
    long seq = loci.lastSeq();
    fieldOf(() -> insert("", FILE, null)).isEqualTo("task_class");
    fieldOf(() -> pathways.insertJson(NS, "{\"task_class\":\"\",\"file_path\":\"a\"}"))
        .isEqualTo("task_class");
    fieldOf(() -> pathways.insertJson(NS, "{\"task_class\":\"t\",")).isEqualTo("trace");
    fieldOf(() -> pathways.insertJson(NS, "[1]")).isEqualTo("trace");
    fieldOf(
            () ->
                pathways.insertJson(
                    NS, "{\"task_class\":\"t\",\"file_path\":\"a\",\"semantic_flags\":[\"Typo\"]}"))
        .isEqualTo("semantic_flags");
    fieldOf(
            () ->
                pathways.insertJson(
                    NS, "{\"task_class\":\"t\",\"file_path\":\"a\",\"trace_uid\":\"x\"}"))
        .isEqualTo("trace_uid");
    fieldOf(
            () ->
                pathways.insertJson(
                    NS, "{\"task_class\":\"t\",\"file_path\":\"a\",\"replay_count\":3}"))
        .isEqualTo("replay_count");
    assertThat(loci.lastSeq()).isEqualTo(seq);
    assertThat(pathways.stats(NamespaceScope.exactly(NS)).traces()).isZero();
  }

  @Test
  void insertJson_keepsAdditiveFieldsAndSubjectIds() {
    PathwayTrace t =
        pathways
            .insertJson(
                NS,
                "{\"task_class\":\"staffing.fill\",\"file_path\":\"jobs/42\","
                    + "\"subject_ids\":[\"cand-7\"],\"x_new\":{\"a\":1}}")
            .trace();
    assertThat(t.subjectIds()).containsExactly("cand-7");
    assertThat(t.unknownFields()).containsOnlyKeys("x_new");
  }

  // ---------------------------------------------------------------- 5.2 revise

  @Test
  void revise_insertsNextVersionAndSupersedesTheOld() {
    PathwayTrace v1 = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace v2 = pathways.revise(NS, v1.traceUid(), b -> b.finalVerdict("rejected")).trace();

    assertThat(v2.traceUid()).isNotEqualTo(v1.traceUid());
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.parentTraceUid()).contains(v1.traceUid());
    assertThat(v2.finalVerdict()).isEqualTo("rejected");
    assertThat(v2.pathwayId()).isEqualTo(v1.pathwayId());
    PathwayTrace old = pathways.get(NS, v1.traceUid(), LEGAL);
    assertThat(old.supersededAt()).contains(v2.createdAt());
    assertThat(old.supersededByTraceUid()).contains(v2.traceUid());
    assertThat(old.finalVerdict()).isEqualTo("accepted");
    assertThat(
            pathways.listVersions(NS, v2.traceUid(), new LegalCapability("auditor")).stream()
                .map(PathwayTrace::traceUid))
        .containsExactly(v1.traceUid(), v2.traceUid());
  }

  @Test
  void revise_nonHeadVersion_isAConflictAndWritesNothing() {
    PathwayTrace v1 = insert("scrum_review", FILE, null);
    pathways.revise(NS, v1.traceUid(), b -> b.finalVerdict("v2"));
    long seq = loci.lastSeq();

    assertThatThrownBy(() -> pathways.revise(NS, v1.traceUid(), b -> b.finalVerdict("v3")))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("head");
    assertThat(loci.lastSeq()).isEqualTo(seq);
  }

  @Test
  void revise_thatMovesThePathway_isRejectedNamingTheField() {
    PathwayTrace v1 = insert("scrum_review", FILE, "LOOPING");
    fieldOf(() -> pathways.revise(NS, v1.traceUid(), b -> b.taskClass("pr_audit")))
        .isEqualTo("task_class");
    fieldOf(() -> pathways.revise(NS, v1.traceUid(), b -> b.signalClass("STUCK")))
        .isEqualTo("signal_class");
    fieldOf(() -> pathways.revise(NS, v1.traceUid(), b -> b.filePath("crates/other/x.rs")))
        .isEqualTo("file_path");
    // another file under the same prefix stays in the pathway
    assertThat(
            pathways
                .revise(NS, v1.traceUid(), b -> b.filePath("crates/queryd/src/lib.rs"))
                .trace()
                .version())
        .isEqualTo(2);
  }

  @Test
  void revise_unknownUid_isNotFoundNamingTraceUid() {
    fieldOf(() -> pathways.revise(NS, "nope", UnaryOperator.identity())).isEqualTo("trace_uid");
    fieldOf(() -> pathways.recordReplay(NS, "nope", true)).isEqualTo("trace_uid");
    fieldOf(() -> pathways.get(NS, "nope", LEGAL)).isEqualTo("trace_uid");
  }

  @Test
  void reviseJson_replacesOnlyTheNamedFields() {
    PathwayTrace v1 = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace v2 =
        pathways.reviseJson(NS, v1.traceUid(), "{\"final_verdict\":\"needs_review\"}").trace();
    assertThat(v2.finalVerdict()).isEqualTo("needs_review");
    assertThat(v2.reducerSummary()).isEqualTo(v1.reducerSummary());
    assertThat(v2.ladderAttempts()).isEqualTo(v1.ladderAttempts());
    fieldOf(() -> pathways.reviseJson(NS, v2.traceUid(), "{\"version\":5}")).isEqualTo("version");
  }

  // ---------------------------------------------------------------- 5.3 / 5.4 replay, probation

  @Test
  void recordReplay_countsEveryReplayAndOnlySuccesses() {
    PathwayTrace t = insert("scrum_review", FILE, null);
    pathways.recordReplay(NS, t.traceUid(), true);
    PathwayTrace after = pathways.recordReplay(NS, t.traceUid(), false);

    assertThat(after.replayCount()).isEqualTo(2);
    assertThat(after.replaysSucceeded()).isEqualTo(1);
    assertThat(pathways.get(NS, t.traceUid())).isEqualTo(after);
  }

  @Test
  void recordReplay_onASupersededVersion_countsOnTheHead() {
    PathwayTrace v1 = insert("scrum_review", FILE, null);
    pathways.recordReplay(NS, v1.traceUid(), true);
    PathwayTrace v2 = pathways.revise(NS, v1.traceUid(), b -> b.finalVerdict("v2")).trace();
    assertThat(v2.replayCount()).as("counters carry over").isEqualTo(1);

    PathwayTrace counted = pathways.recordReplay(NS, v1.traceUid(), false);

    assertThat(counted.traceUid()).isEqualTo(v2.traceUid());
    assertThat(counted.replayCount()).isEqualTo(2);
    assertThat(pathways.get(NS, v1.traceUid(), LEGAL).replayCount()).isEqualTo(1);
    assertThat(pathways.stats(NamespaceScope.exactly(NS)).replays()).isEqualTo(2);
  }

  @Test
  void probationGate_firesAtThreeReplaysBelowEightyPercent() {
    PathwayTrace t = insert("scrum_review", FILE, null);
    pathways.recordReplay(NS, t.traceUid(), true);
    pathways.recordReplay(NS, t.traceUid(), false);
    assertThat(pathways.get(NS, t.traceUid()).retired()).as("two replays never retire").isFalse();
    PathwayTrace third = pathways.recordReplay(NS, t.traceUid(), true);
    assertThat(third.retired()).as("3 replays, 2/3 = 0.67 < 0.80").isTrue();
    assertThat(pathways.stats(NamespaceScope.exactly(NS)).retiredPathways()).isEqualTo(1);
  }

  @Test
  void probationGate_atExactlyEightyPercent_doesNotFire() {
    PathwayTrace t = insert("scrum_review", FILE, null);
    for (boolean ok : new boolean[] {true, true, true, true, false}) {
      t = pathways.recordReplay(NS, t.traceUid(), ok);
    }
    assertThat(t.replayCount()).isEqualTo(5);
    assertThat(t.retired()).as("4/5 = 0.80 is not below 0.80").isFalse();
    assertThat(PathwayLayerRules.fires(3, 3)).isFalse();
    assertThat(PathwayLayerRules.fires(4, 3)).isTrue();
  }

  @Test
  void retiredPathway_isExcludedFromHotswapForever_andNothingResurrectsIt() {
    PathwayTrace t = retiredTrace();
    for (int i = 0; i < 20; i++) {
      pathways.recordReplay(NS, t.traceUid(), true);
    }
    PathwayTrace revised = pathways.revise(NS, t.traceUid(), b -> b.finalVerdict("fixed")).trace();
    PathwayTrace inserted = insert("scrum_review", FILE, null);

    assertThat(revised.retired()).isTrue();
    assertThat(inserted.retired()).isTrue();
    assertThat(pathways.get(NS, revised.traceUid()).replayCount()).isEqualTo(23);
    assertThat(
            pathways.queryForHotswap(
                NamespaceScope.exactly(NS), "scrum_review", FILE, Optional.empty()))
        .isEmpty();
    reopen();
    assertThat(
            pathways.queryForHotswap(
                NamespaceScope.exactly(NS), "scrum_review", FILE, Optional.empty()))
        .isEmpty();
    assertThat(pathways.get(NS, inserted.traceUid()).retired()).isTrue();
  }

  PathwayTrace retiredTrace() {
    PathwayTrace t = insert("scrum_review", FILE, null);
    for (int i = 0; i < 3; i++) {
      t = pathways.recordReplay(NS, t.traceUid(), false);
    }
    assertThat(t.retired()).isTrue();
    return t;
  }

  // ---------------------------------------------------------------- 6.2 queries

  @Test
  void queryForHotswap_ordersBySuccessRateThenReplayCount_headsOnly() {
    PathwayTrace never = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace half = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace fullTwice = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace fullOnce = insert("scrum_review", FILE, "LOOPING");
    pathways.recordReplay(NS, half.traceUid(), true);
    pathways.recordReplay(NS, half.traceUid(), false);
    pathways.recordReplay(NS, fullTwice.traceUid(), true);
    pathways.recordReplay(NS, fullTwice.traceUid(), true);
    pathways.recordReplay(NS, fullOnce.traceUid(), true);
    PathwayTrace superseded = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace head = pathways.revise(NS, superseded.traceUid(), b -> b).trace();
    insert("scrum_review", FILE, "CONVERGING"); // another pathway

    NamespaceScope scope = NamespaceScope.exactly(NS);
    List<String> order =
        pathways
            .queryForHotswap(
                scope, "scrum_review", "crates/queryd/x.rs", Optional.of("LOOPING"), 10)
            .stream()
            .map(PathwayTrace::traceUid)
            .toList();
    assertThat(order.subList(0, 3))
        .containsExactly(fullTwice.traceUid(), fullOnce.traceUid(), half.traceUid());
    assertThat(order).hasSize(5).contains(never.traceUid(), head.traceUid());
    assertThat(order).doesNotContain(superseded.traceUid());
    assertThat(pathways.queryForHotswap(scope, "scrum_review", FILE, Optional.of("LOOPING")))
        .hasSize(5);
    assertThat(pathways.queryForHotswap(scope, "scrum_review", FILE, Optional.of("LOOPING"), 2))
        .hasSize(2);
    assertThat(
            pathways.queryForHotswap(
                scope, "scrum_review", FILE, Optional.of("LOOPING"), 10, LEGAL))
        .extracting(PathwayTrace::traceUid)
        .contains(superseded.traceUid());
    fieldOf(() -> pathways.queryForHotswap(scope, "", FILE, Optional.empty()))
        .isEqualTo("task_class");
    fieldOf(() -> pathways.queryForHotswap(scope, "t", FILE, Optional.empty(), 0)).isEqualTo("k");
  }

  @Test
  void queryForHotswap_topK_equalsTheFirstKOfTheWholePathwaySorted() {
    Namespace other = Namespace.of("acme.other");
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 40; i++) {
      Namespace ns = i % 3 == 0 ? other : NS;
      PathwayTrace t = pathways.insert(ns, draft("scrum_review", FILE, "LOOPING")).trace();
      for (int r = random.nextInt(4); r > 0; r--) {
        pathways.recordReplay(ns, t.traceUid(), true);
      }
    }
    NamespaceScope scope = NamespaceScope.of("acme.*");
    String pathwayId = PathwayIdentity.pathwayId("scrum_review", FILE, Optional.of("LOOPING"));
    List<PathwayTrace> sorted =
        pathways.pathway(scope, pathwayId, false).stream()
            .sorted(dev.loci.pathway.internal.PathwayLayer.HOTSWAP_ORDER)
            .toList();
    assertThat(sorted).hasSize(40);
    for (int k : new int[] {1, 3, 5, 39, 40, 100}) {
      assertThat(pathways.queryForHotswap(scope, "scrum_review", FILE, Optional.of("LOOPING"), k))
          .as("k=%d", k)
          .containsExactlyElementsOf(sorted.subList(0, Math.min(k, sorted.size())));
    }
  }

  @Test
  void queryByVec_ranksHeadsByCosine_likeAnExactScan() {
    PathwayTrace a = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace b = insert("scrum_review", "crates/gateway/src/x.rs", "LOOPING");
    PathwayTrace c = insert("pr_audit", "docs/x.md", null);
    PathwayTrace v1 = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace v2 = pathways.revise(NS, v1.traceUid(), x -> x.finalVerdict("v2")).trace();

    List<ScoredTrace> hits =
        pathways.queryByVec(NamespaceScope.exactly(NS), a.pathwayVec().values(), 10, false);
    assertThat(hits).extracting(h -> h.trace().traceUid()).doesNotContain(v1.traceUid());
    assertThat(hits).hasSize(4);
    for (ScoredTrace h : hits) {
      assertThat(h.score()).isCloseTo(a.pathwayVec().cosine(h.trace().pathwayVec()), within());
    }
    for (int i = 1; i < hits.size(); i++) {
      assertThat(hits.get(i).score()).isLessThanOrEqualTo(hits.get(i - 1).score());
    }
    assertThat(hits.get(0).score()).isCloseTo(1.0, within());
    assertThat(hits.get(hits.size() - 1).trace()).isIn(b, c);
    assertThat(hits).extracting(h -> h.trace().traceUid()).contains(v2.traceUid());
    assertThat(pathways.queryByVec(NamespaceScope.exactly(NS), a.pathwayVec().values(), 2, false))
        .hasSize(2);
    assertThat(
            pathways.queryByVec(
                NamespaceScope.exactly(NS), a.pathwayVec().values(), 10, false, LEGAL))
        .hasSize(5);
  }

  @Test
  void queryByVec_excludesRetiredUnlessAsked() {
    PathwayTrace retired = retiredTrace();
    float[] q = retired.pathwayVec().values();
    assertThat(pathways.queryByVec(NamespaceScope.exactly(NS), q)).isEmpty();
    assertThat(pathways.queryByVec(NamespaceScope.exactly(NS), q, 10, true))
        .extracting(h -> h.trace().traceUid())
        .containsExactly(retired.traceUid());
  }

  @Test
  void queryByVec_badVector_namesPathwayVec() {
    NamespaceScope scope = NamespaceScope.exactly(NS);
    fieldOf(() -> pathways.queryByVec(scope, new float[31])).isEqualTo("pathway_vec");
    fieldOf(() -> pathways.queryByVec(scope, new float[33])).isEqualTo("pathway_vec");
    fieldOf(() -> pathways.queryByVec(scope, new float[32])).isEqualTo("pathway_vec");
    float[] nan = new float[32];
    nan[3] = Float.NaN;
    fieldOf(() -> pathways.queryByVec(scope, nan)).isEqualTo("pathway_vec");
    fieldOf(() -> pathways.queryByVec(scope, null)).isEqualTo("pathway_vec");
  }

  @Test
  void listVersions_requiresTheLegalCapability_andReturnsTheWholeChainFromAnyMember() {
    PathwayTrace v1 = insert("scrum_review", FILE, null);
    PathwayTrace v2 = pathways.revise(NS, v1.traceUid(), b -> b.finalVerdict("2")).trace();
    PathwayTrace v3 = pathways.revise(NS, v2.traceUid(), b -> b.finalVerdict("3")).trace();

    assertThatThrownBy(() -> pathways.listVersions(NS, v2.traceUid(), null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("legal");
    LegalCapability legal = new LegalCapability("dpo@acme");
    for (PathwayTrace member : List.of(v1, v2, v3)) {
      assertThat(pathways.listVersions(NS, member.traceUid(), legal))
          .extracting(PathwayTrace::version)
          .containsExactly(1, 2, 3);
    }
  }

  @Test
  void get_supersededVersion_needsIncludeHistory() {
    PathwayTrace v1 = insert("scrum_review", FILE, null);
    pathways.revise(NS, v1.traceUid(), b -> b.finalVerdict("2"));
    fieldOf(() -> pathways.get(NS, v1.traceUid())).isEqualTo("trace_uid");
    assertThat(pathways.get(NS, v1.traceUid(), LEGAL).version()).isEqualTo(1);
  }

  @Test
  void namespaces_neverSeeEachOther_andScopesCoverDescendants() {
    PathwayTrace mine = insert("scrum_review", FILE, null);
    Namespace globex = Namespace.of("globex");
    Namespace child = Namespace.of("acme.scrum.team1");
    pathways.insert(globex, draft("scrum_review", FILE, null));
    PathwayTrace inChild = pathways.insert(child, draft("scrum_review", FILE, null)).trace();

    fieldOf(() -> pathways.get(globex, mine.traceUid(), LEGAL)).isEqualTo("trace_uid");
    fieldOf(() -> pathways.recordReplay(globex, mine.traceUid(), true)).isEqualTo("trace_uid");
    assertThat(
            pathways.queryForHotswap(
                NamespaceScope.exactly(NS), "scrum_review", FILE, Optional.empty()))
        .containsExactly(mine);
    assertThat(
            pathways.queryForHotswap(
                NamespaceScope.of("acme.*"), "scrum_review", FILE, Optional.empty()))
        .containsExactlyInAnyOrder(mine, inChild);
    assertThat(pathways.queryByVec(NamespaceScope.of("acme.*"), mine.pathwayVec().values()))
        .extracting(ScoredTrace::trace)
        .containsExactlyInAnyOrder(mine, inChild);
    assertThat(pathways.stats(NamespaceScope.of("acme.*")).traces()).isEqualTo(2);
  }

  // ---------------------------------------------------------------- persistence

  @Test
  void state_survivesReopenFromTheJournalAndFromASnapshot() {
    PathwayTrace v1 = insert("scrum_review", FILE, "LOOPING");
    PathwayTrace v2 = pathways.revise(NS, v1.traceUid(), b -> b.finalVerdict("v2")).trace();
    pathways.recordReplay(NS, v2.traceUid(), true);
    PathwayTrace retired = insert("pr_audit", "crates/gateway", null);
    for (int i = 0; i < 3; i++) {
      pathways.recordReplay(NS, retired.traceUid(), false);
    }
    pathways.setRedactionPolicy(NS, RedactionPolicy.off());
    pathways.insert(NS, draft("t", "a/b", null).reducerSummary("mail jo@example.com"));
    PathwayStats stats = pathways.stats(NamespaceScope.exactly(NS));
    List<PathwayTrace> chain = pathways.listVersions(NS, v1.traceUid(), new LegalCapability("t"));
    List<ScoredTrace> similar =
        pathways.queryByVec(NamespaceScope.exactly(NS), v1.pathwayVec().values(), 10, true, LEGAL);

    for (boolean snapshot : new boolean[] {false, true}) {
      if (snapshot) {
        loci.compact();
      }
      reopen();
      assertThat(pathways.stats(NamespaceScope.exactly(NS))).isEqualTo(stats);
      assertThat(pathways.listVersions(NS, v1.traceUid(), new LegalCapability("t")))
          .isEqualTo(chain);
      assertThat(
              pathways.queryByVec(
                  NamespaceScope.exactly(NS), v1.pathwayVec().values(), 10, true, LEGAL))
          .isEqualTo(similar);
      assertThat(pathways.get(NS, retired.traceUid()).retired()).isTrue();
      assertThat(pathways.redactionPolicy(NS)).isEqualTo(RedactionPolicy.off());
    }
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-6);
  }

  @Test
  void get_afterReplaysSnapshotAndReopen_returnsEveryFieldAsWritten() {
    PathwayTrace inserted =
        pathways
            .insertJson(
                NS,
                """
                {"task_class":"review","file_path":"crates/é/src/lib.rs","signal_class":"LOOPING",
                 "reducer_summary":"naïve \u65e5\u672c","final_verdict":"accepted",
                 "bridge_hits":[{"library":"tokio","version":"1.40","result_summary":"spawn"}],
                 "sub_pipeline_calls":[{"pipeline":"extract","n":[1,2]}],
                 "audit_consensus":{"pass":true,"models":["gpt"],"disagreements":["bound"]},
                 "type_hints_used":[{"source":"schema","symbol":"Row","type_repr":"struct Row"}],
                 "subject_ids":["cand-7"],"x_peer":{"nested":[1,"two",null]}}
                """)
            .trace();
    PathwayTrace replayed = pathways.recordReplay(NS, inserted.traceUid(), true);
    assertThat(pathways.get(NS, inserted.traceUid())).isEqualTo(replayed);
    assertThat(replayed.unknownFields()).containsKey("x_peer");

    loci.snapshot();
    reopen();

    assertThat(pathways.get(NS, inserted.traceUid())).isEqualTo(replayed);
    assertThat(
            pathways.queryForHotswap(
                NamespaceScope.exactly(NS),
                "review",
                "crates/é/src/lib.rs",
                Optional.of("LOOPING")))
        .containsExactly(replayed);
  }
}
