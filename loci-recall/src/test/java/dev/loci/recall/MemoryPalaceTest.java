package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.TestClock;
import dev.loci.recall.spi.SourceDocument;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryPalaceTest {
  static final String RUNBOOK =
      """
      # Detection

      1. When the ledger queue grows past ten thousand entries, page the payments on-call.
      2. Check the ledger dashboard for stuck consumers.

      # Escalation

      3. Restart the ledger consumer group.
      4. If the restart does not clear the queue, escalate to step 5.
      5. Fail over to the standby ledger region and flush the cache.
      """;

  static final String CHAT =
      """
      {"sample_id": "c1", "conversation": {
        "speaker_a": "Ana", "speaker_b": "Ben",
        "session_1_date_time": "1 May 2023",
        "session_1": [
          {"speaker": "Ana", "dia_id": "D1:1", "text": "I water the fern every Sunday morning."},
          {"speaker": "Ben", "dia_id": "D1:2", "text": "My bike needs a new chain."}],
        "session_2_date_time": "8 May 2023",
        "session_2": [
          {"speaker": "Ana", "dia_id": "D2:1", "text": "Every Sunday morning I water the fern!"},
          {"speaker": "Ben", "dia_id": "D2:2", "text": "The chain arrived today."}]}}
      """;

  @TempDir Path tmp;
  final TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
  final Namespace ns = Namespace.of("ops");
  Loci loci;
  RecallMemory recall;
  MemoryPalace palace;

  @BeforeEach
  void open() {
    loci = Loci.builder().dataDir(tmp).durability(Durability.none()).clock(clock).open();
    recall = RecallMemory.of(loci);
    palace = MemoryPalace.of(loci, recall);
  }

  @AfterEach
  void close() {
    loci.close();
  }

  void reopen() {
    loci.close();
    open();
  }

  void ingestRunbook() {
    recall.ingest(
        ns,
        DomainPacks.named("markdown:runbook"),
        new SourceDocument("docs/02_payments_runbook.md", RUNBOOK),
        RecallMemory.Progress.NONE);
  }

  @Test
  void spaces_documentSections_haveStableReadableIds() {
    ingestRunbook();
    assertThat(palace.spaces(ns))
        .extracting(PalaceSpace::id)
        .containsExactly(
            "02_payments_runbook",
            "02_payments_runbook:detection",
            "02_payments_runbook:escalation");
    PalaceSpace esc = palace.space(ns, "02_payments_runbook:escalation");
    assertThat(esc.parent()).contains("02_payments_runbook");
    assertThat(esc.memoryCount()).isEqualTo(3);
    assertThat(palace.memoriesIn(ns, esc.id()))
        .extracting(PalaceMemory::id)
        .containsExactly("02_payments_runbook:3", "02_payments_runbook:4", "02_payments_runbook:5");
    PalaceMemory m = palace.memory(ns, "02_payments_runbook:4");
    assertThat(m).isInstanceOf(SemanticMemory.class);
    assertThat(m.lifecycle().state()).isEqualTo(LifecycleState.ENCODED);
    assertThat(m.links()).extracting(MemoryLink::type).contains(LinkType.NEXT, LinkType.LOCATED_IN);
    assertThatThrownBy(() -> palace.space(ns, "nowhere"))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("nowhere");
  }

  @Test
  void feedback_thenTime_movesThroughEveryState() {
    ingestRunbook();
    String id = "02_payments_runbook:3";
    List<LifecycleState> seen = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      palace
          .feedback(ns, new Feedback(List.of(id), List.of(), true))
          .transitions()
          .forEach(t -> seen.add(t.to()));
      clock.advance(Duration.ofHours(1));
    }
    assertThat(seen)
        .containsExactly(
            LifecycleState.ACTIVE, LifecycleState.STABILIZING, LifecycleState.CONSOLIDATED);
    MemoryState s = palace.memory(ns, id).lifecycle();
    assertThat(s.reinforcementCount()).isEqualTo(8);
    assertThat(s.stabilityScore()).isBetween(0.9, 1.0);
    // an untouched memory fades, then is archived, by sweeps as time passes
    String idle = "02_payments_runbook:2";
    clock.advance(Duration.ofDays(200));
    SweepReport first = palace.sweep(ns);
    assertThat(first.transitions())
        .filteredOn(t -> t.nodeId().equals(idle))
        .extracting(LifecycleTransition::to)
        .containsExactly(LifecycleState.FADING);
    assertThat(palace.memory(ns, id).lifecycle().state()).isEqualTo(LifecycleState.CONSOLIDATED);
    clock.advance(Duration.ofDays(300));
    palace.sweep(ns);
    assertThat(palace.memory(ns, idle).lifecycle().state()).isEqualTo(LifecycleState.ARCHIVED);
    assertThat(palace.transitions(ns, idle))
        .extracting(LifecycleTransition::reason)
        .allMatch(r -> r.startsWith("decayed: stability"));
    // a second sweep at the same instant records nothing
    assertThat(palace.sweep(ns).transitions()).isEmpty();
  }

  @Test
  void archived_leavesDefaultRecall_inEveryMode_andComesBackWhenReinforced() {
    ingestRunbook();
    clock.advance(Duration.ofDays(800));
    palace.sweep(ns);
    String target = "02_payments_runbook:5";
    assertThat(palace.memory(ns, target).lifecycle().state()).isEqualTo(LifecycleState.ARCHIVED);
    for (RecallMode mode : RecallMode.values()) {
      RecallResult r =
          recall.recall(ns, RecallQuery.builder("fail over standby ledger region", mode).build());
      assertThat(r.ids()).as(mode.wireName()).doesNotContain(target);
    }
    palace.feedback(ns, new Feedback(List.of(target), List.of(), true));
    assertThat(
            recall
                .recall(
                    ns,
                    RecallQuery.builder("fail over standby ledger region", RecallMode.LEXICAL)
                        .build())
                .ids())
        .contains(target);
  }

  @Test
  void feedbackWithRoute_storesRouteMemory_replayedByRecall() {
    ingestRunbook();
    List<String> route =
        List.of("02_payments_runbook:4", "02_payments_runbook:3", "02_payments_runbook:5");
    FeedbackReport f = palace.feedback(ns, new Feedback(List.of(), route, true));
    assertThat(f.route()).isPresent();
    PalaceMemory stored = palace.memory(ns, f.route().get());
    assertThat(stored).isInstanceOf(RouteMemory.class);
    assertThat(((RouteMemory) stored).steps()).isEqualTo(route);
    assertThat(stored.spaceId()).contains("02_payments_runbook:escalation");
    PalaceRecallResult r =
        palace.recall(
            ns,
            RecallQuery.builder("restart does not clear the queue", RecallMode.LEXICAL)
                .k(3)
                .build(),
            false);
    assertThat(r.routes()).extracting(RouteMemory::id).containsExactly(f.route().get());
    assertThat(r.routes().get(0).steps()).isEqualTo(route);
    // the same route again reinforces, it does not store twice
    palace.feedback(ns, new Feedback(List.of(), route, true));
    assertThat(palace.memory(ns, f.route().get()).lifecycle().reinforcementCount()).isEqualTo(2);
    assertThatThrownBy(() -> palace.feedback(ns, new Feedback(List.of("nope"), List.of(), true)))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("node_ids[0]");
  }

  @Test
  void reinforceOnRecall_recordsAUseOfEveryReturnedMemory() {
    ingestRunbook();
    RecallQuery q = RecallQuery.builder("ledger consumer", RecallMode.LEXICAL).k(2).build();
    PalaceRecallResult r = palace.recall(ns, q, true);
    assertThat(r.reinforced()).isPresent();
    assertThat(r.retrievedMemories())
        .allSatisfy(m -> assertThat(m.lifecycle().state()).isEqualTo(LifecycleState.ACTIVE));
    assertThat(palace.recall(ns, q, false).reinforced()).isEmpty();
  }

  @Test
  void consolidation_summarizesRepeatsAcrossSessions_isIdempotent_andUndoable() {
    recall.ingest(
        ns,
        DomainPacks.named("conversation"),
        new SourceDocument("chat.json", CHAT),
        RecallMemory.Progress.NONE);
    Namespace chat = Namespace.of("ops.c1");
    ConsolidationReport first = palace.consolidate(chat);
    assertThat(first.summaries()).hasSize(1);
    String summary = first.summaries().keySet().iterator().next();
    assertThat(first.summaries().get(summary)).containsExactly("D1:1", "D2:1");
    SemanticMemory m = (SemanticMemory) palace.memory(chat, summary);
    assertThat(m.sources()).containsExactly("D1:1", "D2:1");
    assertThat(m.content()).contains("I water the fern every Sunday morning.");
    long seq = loci.lastSeq();
    assertThat(palace.consolidate(chat).runId()).isEmpty();
    assertThat(loci.lastSeq()).isEqualTo(seq);
    palace.undoConsolidation(chat, first.runId().orElseThrow());
    assertThatThrownBy(() -> palace.memory(chat, summary)).isInstanceOf(NotFoundException.class);
    assertThat(recall.nodeVersion(chat, summary).removed()).isTrue();
    assertThat(palace.consolidations(chat)).containsEntry(first.runId().get(), true);
  }

  @Test
  void replay_fromJournalAndFromSnapshot_givesIdenticalLifecycles() {
    ingestRunbook();
    palace.setPolicy(ns, new LifecyclePolicy(Duration.ofDays(3)));
    palace.feedback(
        ns,
        new Feedback(
            List.of("02_payments_runbook:1"),
            List.of("02_payments_runbook:3", "02_payments_runbook:4"),
            true));
    clock.advance(Duration.ofDays(10));
    palace.sweep(ns);
    palace.feedback(ns, new Feedback(List.of("02_payments_runbook:2"), List.of(), false));
    clock.advance(Duration.ofDays(30));
    palace.sweep(ns);
    Map<String, String> before = lifecycles();
    assertThat(before.values()).anyMatch(s -> s.contains("state=archived"));
    reopen();
    assertThat(lifecycles()).isEqualTo(before);
    loci.snapshot();
    reopen();
    assertThat(lifecycles()).isEqualTo(before);
    assertThat(palace.policy(ns).halfLife()).isEqualTo(Duration.ofDays(3));
  }

  private Map<String, String> lifecycles() {
    return recall.nodes(ns).stream()
        .collect(
            Collectors.toMap(
                MemoryNode::id,
                n -> {
                  PalaceMemory m = palace.memory(ns, n.id());
                  return m.lifecycle() + " " + palace.transitions(ns, n.id()) + " " + m.kind();
                },
                (a, b) -> a,
                TreeMap::new));
  }
}
