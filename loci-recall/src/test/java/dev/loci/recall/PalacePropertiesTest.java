package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.TestClock;
import dev.loci.recall.spi.SourceDocument;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property-style tests of the palace with seeded randomness (the seed is in every assertion's
 * description): random histories of uses and time keep stability in [0, 1] and never recall an
 * archived memory by default; consolidating random conversations twice changes nothing the second
 * time.
 */
class PalacePropertiesTest {
  static final long BASE_SEED = 0x9a1ace5L;

  @TempDir Path tmp;
  final TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
  final Namespace ns = Namespace.of("props");
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

  @RepeatedTest(12)
  void randomUsesAndTime_stabilityStaysInUnitInterval_andArchivedNeverRecalled(RepetitionInfo rep) {
    long seed = BASE_SEED + rep.getCurrentRepetition();
    Random random = new Random(seed);
    recall.ingest(
        ns,
        DomainPacks.named("markdown:runbook"),
        new SourceDocument("docs/02_payments_runbook.md", MemoryPalaceTest.RUNBOOK),
        RecallMemory.Progress.NONE);
    List<MemoryNode> nodes = recall.nodes(ns);
    List<String> ids = nodes.stream().map(MemoryNode::id).toList();
    for (int step = 0; step < 30; step++) {
      String what = "seed " + seed + " step " + step;
      switch (random.nextInt(4)) {
        case 0 -> {
          List<String> used = new ArrayList<>();
          ids.stream().filter(id -> random.nextInt(3) == 0).forEach(used::add);
          if (!used.isEmpty()) {
            palace.feedback(ns, new Feedback(used, List.of(), random.nextInt(4) != 0));
          }
        }
        case 1 -> clock.advance(Duration.ofHours(1 + random.nextInt(24 * 200)));
        default -> palace.sweep(ns);
      }
      for (String id : ids) {
        MemoryState s = palace.memory(ns, id).lifecycle();
        assertThat(s.stabilityScore()).as(what + " " + id).isBetween(0.0, 1.0);
      }
      Set<String> archived =
          ids.stream()
              .filter(id -> palace.memory(ns, id).lifecycle().state() == LifecycleState.ARCHIVED)
              .collect(Collectors.toSet());
      if (!archived.isEmpty()) {
        RecallMode mode = RecallMode.values()[random.nextInt(RecallMode.values().length)];
        for (MemoryNode n : nodes) {
          if (archived.contains(n.id())) {
            List<String> got =
                recall.recall(ns, RecallQuery.builder(n.content(), mode).k(10).build()).ids();
            assertThat(got).as(what + " " + mode.wireName()).doesNotContainAnyElementsOf(archived);
          }
        }
      }
    }
  }

  static final List<String> LINES =
      List.of(
          "I water the fern every Sunday morning.",
          "My bike needs a new chain.",
          "The train to Leeds leaves at seven.",
          "We keep the spare key under the blue pot.",
          "Grandma calls on Thursday evenings.",
          "The dentist moved my appointment to June.");

  /** A LoCoMo-shaped conversation of 2 to 4 sessions, each repeating lines at random. */
  static String conversation(String id, Random random) {
    StringBuilder b =
        new StringBuilder("{\"sample_id\": \"" + id + "\", \"conversation\": {")
            .append("\"speaker_a\": \"Ana\", \"speaker_b\": \"Ben\"");
    int sessions = 2 + random.nextInt(3);
    for (int s = 1; s <= sessions; s++) {
      b.append(", \"session_").append(s).append("_date_time\": \"").append(s).append(" May 2023\"");
      b.append(", \"session_").append(s).append("\": [");
      int turns = 2 + random.nextInt(4);
      for (int t = 1; t <= turns; t++) {
        b.append(t > 1 ? ", " : "")
            .append("{\"speaker\": \"")
            .append(random.nextBoolean() ? "Ana" : "Ben")
            .append("\", \"dia_id\": \"D")
            .append(s)
            .append(':')
            .append(t)
            .append("\", \"text\": \"")
            .append(LINES.get(random.nextInt(LINES.size())))
            .append("\"}");
      }
      b.append(']');
    }
    return b.append("}}").toString();
  }

  @RepeatedTest(8)
  void consolidation_ofRandomConversations_isIdempotent(RepetitionInfo rep) {
    long seed = BASE_SEED + 100 + rep.getCurrentRepetition();
    Random random = new Random(seed);
    recall.ingest(
        ns,
        DomainPacks.named("conversation"),
        new SourceDocument("chat.json", conversation("c" + rep.getCurrentRepetition(), random)),
        RecallMemory.Progress.NONE);
    Namespace chat = Namespace.of("props.c" + rep.getCurrentRepetition());
    ConsolidationReport first = palace.consolidate(chat);
    List<String> afterFirst =
        recall.nodes(chat).stream().map(n -> n.id() + " " + n.content()).sorted().toList();
    long seq = loci.lastSeq();
    ConsolidationReport second = palace.consolidate(chat);
    assertThat(second.runId()).as("seed " + seed).isEmpty();
    assertThat(second.summaries()).as("seed " + seed).isEmpty();
    assertThat(loci.lastSeq()).as("seed " + seed).isEqualTo(seq);
    assertThat(recall.nodes(chat).stream().map(n -> n.id() + " " + n.content()).sorted().toList())
        .as("seed " + seed)
        .isEqualTo(afterFirst);
    // every summary quotes each of its sources
    first
        .summaries()
        .forEach(
            (summary, sources) ->
                assertThat(sources).as("seed " + seed + " " + summary).hasSizeGreaterThan(1));
  }
}
