package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.Page;
import dev.loci.internal.SnapshotStore;
import dev.loci.recall.EvidenceRef;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecordVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph's own tables ({@link NodeTable}, {@link EdgeTable}, a node's links in {@link
 * NodeChain}): a graph large enough to grow them many times, with a hub past the short array of
 * links, edges and nodes removed, must read back as a plain model of it says, live, from a snapshot
 * and by journal replay.
 */
class GraphTablesTest {
  static final Namespace NS = Namespace.of("acme.tables");
  static final int NODES = 3_000;
  static final int HUB_EDGES = 400;

  @TempDir Path tmp;

  private static final Comparator<MemoryEdge.Key> ORDER =
      Comparator.comparing(MemoryEdge.Key::from)
          .thenComparing(MemoryEdge.Key::edgeType)
          .thenComparing(MemoryEdge.Key::to);

  /** What the graph should hold: live node ids in put order and live edge keys. */
  private final Set<String> liveNodes = new LinkedHashSet<>();

  private final Set<MemoryEdge.Key> liveEdges = new TreeSet<>(ORDER);

  @Test
  void aLargeGraphWithAHub_readsBackAsItsModel_live_fromTheSnapshot_andByReplay()
      throws IOException {
    try (Loci loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open()) {
      build(RecallMemory.of(loci));
      check(RecallMemory.of(loci));
      loci.snapshot();
    }
    try (Loci loci = Loci.builder().dataDir(tmp).open()) {
      check(RecallMemory.of(loci));
    }
    try (var files = Files.list(tmp.resolve("snapshots"))) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    try (Loci loci = Loci.builder().dataDir(tmp).open()) {
      check(RecallMemory.of(loci));
    }
  }

  /**
   * A snapshot written before the recall layer's records carried sizes and node ordinals (format
   * version 1) still opens, with nothing else to read: the journal it covers is gone.
   */
  @Test
  void aSnapshotOfRecallFormat1_stillOpens() {
    try (Loci loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open()) {
      build(RecallMemory.of(loci));
      loci.compact(); // a snapshot, and the journal it covers deleted
    }
    Path file = SnapshotStore.open(tmp.resolve("snapshots")).list().get(0);
    SnapshotStore.Header header = SnapshotStore.check(file);
    assertThat(header.layers()).containsEntry(RecallLayer.NAME, RecallSnapshots.VERSION);
    Map<String, List<String>> byLayer = new LinkedHashMap<>();
    header.layers().keySet().forEach(l -> byLayer.put(l, new ArrayList<>()));
    SnapshotStore.load(
        file,
        (layer, record) -> {
          if (layer.equals(RecallLayer.NAME)) {
            if (record.contains("\"nodes\":")) {
              return; // version 1 had no sizes records
            }
            record = record.replaceAll(",\"from_node\":\\d+,\"to_node\":\\d+}$", "}");
          }
          byLayer.get(layer).add(record);
        });
    Map<String, Map.Entry<Integer, Iterable<String>>> layers = new LinkedHashMap<>();
    byLayer.forEach(
        (layer, records) ->
            layers.put(
                layer,
                Map.entry(
                    layer.equals(RecallLayer.NAME) ? 1 : header.layers().get(layer), records)));
    SnapshotStore.open(tmp.resolve("snapshots")).write(header.seq(), header.ts(), layers);
    assertThat(SnapshotStore.check(file).layers()).containsEntry(RecallLayer.NAME, 1);
    try (Loci loci = Loci.builder().dataDir(tmp).open()) {
      check(RecallMemory.of(loci));
    }
  }

  /**
   * An edge's chain holds its fields and makes the edge on read ({@link EdgeChain}): every field
   * (weight, confidence, direction, source) of random edges, some put again with other fields,
   * reads back as put, live, from the snapshot and by replay.
   */
  @RepeatedTest(3)
  void edgesWithEveryField_readBackAsPut_live_fromTheSnapshot_andByReplay() throws IOException {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    Map<MemoryEdge.Key, RecordVersion<MemoryEdge>> expected = new LinkedHashMap<>();
    try (Loci loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open()) {
      RecallMemory m = RecallMemory.of(loci);
      for (int i = 0; i < 60; i++) {
        m.putNode(NS, MemoryNode.builder("e" + i, "unit", "text " + i).build());
      }
      for (int k = 0; k < 500; k++) {
        int from = r.nextInt(60);
        int to = (from + 1 + r.nextInt(59)) % 60;
        MemoryEdge e =
            new MemoryEdge(
                "e" + from,
                "e" + to,
                r.nextBoolean() ? "references" : "next_unit",
                r.nextBoolean() ? r.nextInt(11) / 10.0 : r.nextDouble(),
                r.nextBoolean() ? 1.0 : r.nextDouble(),
                r.nextBoolean(),
                r.nextBoolean()
                    ? Optional.of(EvidenceRef.of("doc-" + r.nextInt(3), "s", 1, 1 + r.nextInt(9)))
                    : Optional.empty());
        expected.put(e.key(), m.putEdge(NS, e));
      }
      checkEdges(seed, m, expected);
      loci.snapshot();
    }
    try (Loci loci = Loci.builder().dataDir(tmp).open()) {
      checkEdges(seed, RecallMemory.of(loci), expected);
    }
    try (var files = Files.list(tmp.resolve("snapshots"))) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    try (Loci loci = Loci.builder().dataDir(tmp).open()) {
      checkEdges(seed, RecallMemory.of(loci), expected);
    }
  }

  private static void checkEdges(
      long seed, RecallMemory m, Map<MemoryEdge.Key, RecordVersion<MemoryEdge>> expected) {
    assertThat(expected.values()).anyMatch(v -> v.version() > 1);
    for (RecordVersion<MemoryEdge> v : expected.values()) {
      MemoryEdge e = v.value();
      RecordVersion<MemoryEdge> found = m.edgeVersion(NS, e.key());
      assertThat(found.value()).as("seed %d", seed).isEqualTo(e);
      assertThat(found.version()).as("seed %d, %s", seed, e.key()).isEqualTo(v.version());
    }
    for (int i = 0; i < 60; i++) {
      String id = "e" + i;
      List<MemoryEdge> touching =
          expected.values().stream()
              .map(RecordVersion::value)
              .filter(e -> e.from().equals(id) || e.to().equals(id))
              .sorted(Comparator.comparing(MemoryEdge::key, ORDER))
              .toList();
      assertThat(m.edges(NS, id)).as("seed %d, edges of %s", seed, id).isEqualTo(touching);
    }
  }

  private void build(RecallMemory m) {
    for (int i = 0; i < NODES; i++) {
      put(m, "n" + i);
    }
    for (int i = 1; i <= HUB_EDGES; i++) {
      edge(m, "n0", "n" + i, "link");
    }
    for (int i = 0; i + 1 < NODES; i += 3) {
      edge(m, "n" + i, "n" + (i + 1), "next_unit");
      edge(m, "n" + (i + 1), "n" + i, "back");
    }
    // the hub loses every other link, then a node that two kinds of edge join goes
    for (int i = 1; i <= HUB_EDGES; i += 2) {
      MemoryEdge.Key k = new MemoryEdge.Key("n0", "link", "n" + i);
      m.removeEdge(NS, k);
      liveEdges.remove(k);
    }
    m.removeNode(NS, "n4"); // n0 -link-> n4 (kept), n3 -next_unit-> n4, n4 -back-> n3
    liveNodes.remove("n4");
    liveEdges.removeIf(k -> k.from().equals("n4") || k.to().equals("n4"));
    put(m, "n4"); // put again: it keeps its first place in the put order
    m.putEdge(NS, MemoryEdge.of("n0", "n1", "link", 0.25)); // removed once, put again
    liveEdges.add(new MemoryEdge.Key("n0", "link", "n1"));
  }

  private void put(RecallMemory m, String id) {
    m.putNode(NS, MemoryNode.builder(id, "unit", "text of " + id).build());
    liveNodes.add(id);
  }

  private void edge(RecallMemory m, String from, String to, String type) {
    m.putEdge(NS, MemoryEdge.of(from, to, type, 0.5));
    liveEdges.add(new MemoryEdge.Key(from, type, to));
  }

  private void check(RecallMemory m) {
    List<String> paged = new ArrayList<>();
    Optional<String> cursor = Optional.empty();
    do {
      Page<dev.loci.recall.RecordVersion<MemoryNode>> page = m.nodes(NS, 700, cursor);
      page.items().forEach(v -> paged.add(v.value().id()));
      cursor = page.nextCursor();
    } while (cursor.isPresent());
    List<String> inOrder = new ArrayList<>(liveNodes);
    inOrder.remove("n4"); // put first before n5, so it comes back in its first place
    inOrder.add(4, "n4");
    assertThat(paged).isEqualTo(inOrder);
    assertThat(m.stats(NS).nodes()).isEqualTo(NODES);
    assertThat(m.stats(NS).edges()).isEqualTo(liveEdges.size());
    assertThat(m.stats(NS).removedNodes()).isZero();
    assertThat(m.edgeCount(NS)).isEqualTo(liveEdges.size());
    for (String id : liveNodes) {
      List<MemoryEdge.Key> expected =
          liveEdges.stream().filter(k -> k.from().equals(id) || k.to().equals(id)).toList();
      assertThat(m.edges(NS, id).stream().map(MemoryEdge::key).toList())
          .as("edges of %s", id)
          .isEqualTo(expected);
    }
    assertThat(m.edgeVersion(NS, new MemoryEdge.Key("n0", "link", "n1")).version()).isEqualTo(3);
    assertThat(m.node(NS, "n2999")).map(MemoryNode::content).contains("text of n2999");
    assertThat(m.node(NS, "n" + NODES)).isEmpty();
  }
}
