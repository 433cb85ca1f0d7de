package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.spi.Event;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot records and journaled events are bound straight from their JSON text into records
 * ({@link RecallSnapshots}, {@link RecallEvents}): what that reads must be what the tree-based
 * reader read, and bad input must still be refused by name.
 */
class RecallRecordsTest {
  static final Namespace A = Namespace.of("acme.a");
  static final Namespace B = Namespace.of("acme.b");

  @TempDir Path tmp;

  private static List<String> captured(RecallLayer layer) {
    List<String> out = new ArrayList<>();
    layer.capture().forEach(out::add);
    return out;
  }

  @Test
  void capture_thenRestoreIntoAFreshLayer_rebuildsEveryVersionAndCapturesTheSameRecords() {
    List<String> records;
    RecallLayer restored = new RecallLayer();
    try (Loci loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open()) {
      RecallMemory m = RecallMemory.of(loci);
      m.putNode(A, MemoryNode.builder("n1", "unit", "refund policy").importance(0.7).build());
      m.putNode(A, MemoryNode.builder("n2", "unit", "contract clause").build());
      m.putNode(A, MemoryNode.builder("n1", "unit", "refund policy, revised").build());
      m.putEdge(A, MemoryEdge.of("n1", "n2", "next_unit", 0.5));
      m.removeEdge(A, new MemoryEdge.Key("n1", "next_unit", "n2"));
      m.removeNode(A, "n2");
      m.putNode(B, MemoryNode.builder("x", "note", "other tenant").build());
      RecallLayer layer = loci.layer(RecallLayer.class);
      records = loci.executor().read(() -> captured(layer));
      records.forEach(r -> restored.restore(r, RecallSnapshots.VERSION));
      assertThat(restored.nodeHistory(A, "n1")).isEqualTo(layer.nodeHistory(A, "n1"));
      assertThat(restored.nodeHistory(A, "n2")).isEqualTo(layer.nodeHistory(A, "n2"));
      assertThat(restored.edgeHistory(A, new MemoryEdge.Key("n1", "next_unit", "n2")))
          .isEqualTo(layer.edgeHistory(A, new MemoryEdge.Key("n1", "next_unit", "n2")));
      assertThat(restored.nodes(B)).isEqualTo(layer.nodes(B));
    }
    assertThat(captured(restored)).isEqualTo(records);
    assertThat(records).hasSize(9);
    // the record shape of format version 2: each namespace's sizes first, then its versions,
    // fields in this order, the value under node or edge, an edge's node ordinals last
    assertThat(records.get(0)).isEqualTo("{\"ns\":\"acme.a\",\"nodes\":2,\"edges\":1}");
    assertThat(records.get(1))
        .startsWith("{\"ns\":\"acme.a\",\"version\":1,\"at\":\"")
        .contains("\"removed\":false,\"node\":{\"id\":\"n1\"");
    assertThat(records)
        .anyMatch(
            r ->
                r.contains("\"removed\":true,\"edge\":{")
                    && r.endsWith(",\"from_node\":0,\"to_node\":1}"));
    assertThat(records.get(7)).isEqualTo("{\"ns\":\"acme.b\",\"nodes\":1,\"edges\":0}");
  }

  /**
   * Records of format version 1 (no sizes, no node ordinals on edges), as snapshots written before
   * version 2 hold them, still restore the same graph; and ordinals that do not name the edge's
   * nodes are not trusted: the nodes are found by id.
   */
  @Test
  void restore_version1Records_andWrongOrdinals_rebuildTheSameGraph() {
    List<String> records;
    try (Loci loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open()) {
      RecallMemory m = RecallMemory.of(loci);
      for (int i = 0; i < 40; i++) {
        m.putNode(A, MemoryNode.builder("n" + i, "unit", "text " + i).build());
      }
      for (int i = 0; i + 1 < 40; i++) {
        m.putEdge(A, MemoryEdge.of("n" + i, "n" + (i + 1), "next_unit", 0.5));
        m.putEdge(A, MemoryEdge.of("n0", "n" + (i + 1), "references", 0.25));
      }
      m.removeEdge(A, new MemoryEdge.Key("n0", "references", "n7"));
      RecallLayer layer = loci.layer(RecallLayer.class);
      records = loci.executor().read(() -> captured(layer));
    }
    RecallLayer original = new RecallLayer();
    records.forEach(r -> original.restore(r, RecallSnapshots.VERSION));
    RecallLayer v1 = new RecallLayer();
    records.stream()
        .filter(r -> !r.contains("\"nodes\":"))
        .map(r -> r.replaceAll(",\"from_node\":\\d+,\"to_node\":\\d+}$", "}"))
        .forEach(r -> v1.restore(r, 1));
    RecallLayer shifted = new RecallLayer(); // every ordinal names another node
    records.stream()
        .map(r -> r.replaceAll("\"from_node\":(\\d+)", "\"from_node\":1$1"))
        .map(r -> r.replaceAll("\"to_node\":\\d+", "\"to_node\":0"))
        .forEach(r -> shifted.restore(r, RecallSnapshots.VERSION));
    for (RecallLayer restored : List.of(v1, shifted)) {
      assertThat(restored.stats(A)).isEqualTo(original.stats(A));
      for (int i = 0; i < 40; i++) {
        assertThat(restored.edgesOf(A, "n" + i)).isEqualTo(original.edgesOf(A, "n" + i));
      }
      assertThat(captured(restored)).isEqualTo(records);
    }
    assertThat(original.edgesOf(A, "n0")).hasSize(39);
  }

  @Test
  void restore_badRecords_refusedNamingWhatIsWrong() {
    RecallLayer layer = new RecallLayer();
    String ok =
        "{\"ns\":\"acme.a\",\"version\":1,\"at\":\"2026-11-26T10:00:00Z\",\"removed\":false,"
            + "\"node\":"
            + RecallJson.write(MemoryNode.builder("n1", "unit", "text").build())
            + "}";
    layer.restore(ok, 1);
    assertThat(layer.node(A, "n1")).map(MemoryNode::content).contains("text");
    assertThatThrownBy(() -> layer.restore(ok, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("version 3 are unknown");
    assertThatThrownBy(() -> layer.restore("{\"ns\":\"acme.a\",\"nodes\":-1,\"edges\":0}", 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'nodes' and 'edges', 0 or more");
    assertThatThrownBy(
            () -> layer.restore("{\"ns\":\"acme.a\",\"version\":1,\"nodes\":1,\"edges\":0}", 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only 'ns', 'nodes' and 'edges'");
    assertThatThrownBy(() -> layer.restore("{not json", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unreadable recall record");
    assertThatThrownBy(() -> layer.restore(ok.replace("\"version\":1,", ""), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("positive 'version'");
    assertThatThrownBy(() -> layer.restore(ok.replace("acme.a", "Not A Namespace"), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unreadable recall record");
    String neither = "{\"ns\":\"acme.a\",\"version\":2,\"at\":\"2026-11-26T10:00:00Z\"}";
    assertThatThrownBy(() -> layer.restore(neither, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'node' or an 'edge'");
  }

  @Test
  void journaledEvents_boundFromTheirText_equalTheDecodedOnes() {
    MemoryNode n = MemoryNode.builder("n1", "unit", "refund").attribute("pack", "p").build();
    MemoryEdge e = MemoryEdge.of("n1", "n2", "next_unit", 0.25);
    MemoryEdge.Key k = e.key();
    for (Event made :
        List.of(
            RecallEvents.nodePut(n, 3),
            RecallEvents.nodeRemoved("n1", 4),
            RecallEvents.edgePut(e, 1),
            RecallEvents.edgeRemoved(k, 2))) {
      Event journaled = Event.ofJson(made.type(), made.json()); // as replay reads it: no value
      assertThat(journaled.decoded()).isEmpty();
      Object bound =
          switch (made.type()) {
            case RecallEvents.NODE_PUT -> RecallEvents.nodePut(journaled);
            case RecallEvents.NODE_REMOVED -> RecallEvents.nodeRemoved(journaled);
            case RecallEvents.EDGE_PUT -> RecallEvents.edgePut(journaled);
            default -> RecallEvents.edgeRemoved(journaled);
          };
      assertThat(bound).isEqualTo(made.decoded().orElseThrow());
    }
  }

  @Test
  void journaledEvents_unreadable_failAsStateErrorsNamingTheField() {
    assertThatThrownBy(
            () -> RecallEvents.nodePut(Event.ofJson(RecallEvents.NODE_PUT, "{\"version\":1}")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'node'");
    assertThatThrownBy(
            () ->
                RecallEvents.nodeRemoved(Event.ofJson(RecallEvents.NODE_REMOVED, "{\"id\":\"x\"}")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("positive 'version'");
    assertThatThrownBy(
            () ->
                RecallEvents.edgeRemoved(
                    Event.ofJson(RecallEvents.EDGE_REMOVED, "{\"version\":1,\"from\":\"a\"}")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'edge_type'");
    assertThatThrownBy(
            () ->
                RecallEvents.nodePut(
                    Event.ofJson(RecallEvents.NODE_PUT, "{\"version\":1,\"node\":{\"id\":\"\"}}")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("unreadable recall.node_put event");
  }
}
