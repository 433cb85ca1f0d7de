package dev.loci.recall.internal;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.spi.Event;

/**
 * The recall layer's events: their types, the JSON they are journaled as, and their decoding.
 *
 * <ul>
 *   <li>{@code recall.node_put}: {@code version}, {@code node};
 *   <li>{@code recall.node_removed}: {@code version}, {@code id};
 *   <li>{@code recall.edge_put}: {@code version}, {@code edge};
 *   <li>{@code recall.edge_removed}: {@code version}, {@code from}, {@code edge_type}, {@code to}.
 * </ul>
 *
 * <p>An event the layer just made carries its decoded value; one read back from the journal is
 * bound straight from its JSON text into the record (Jackson databind, no intermediate tree), which
 * is most of what replaying a journal costs. Stateless.
 */
final class RecallEvents {
  static final String NODE_PUT = "recall.node_put";
  static final String NODE_REMOVED = "recall.node_removed";
  static final String EDGE_PUT = "recall.edge_put";
  static final String EDGE_REMOVED = "recall.edge_removed";

  private RecallEvents() {}

  /** A node put at {@code version}. */
  record NodePut(MemoryNode node, int version) {}

  /** A node removed at {@code version}. */
  record NodeRemoved(String id, int version) {}

  /** An edge put at {@code version}. */
  record EdgePut(MemoryEdge edge, int version) {}

  /** An edge removed at {@code version}. */
  record EdgeRemoved(MemoryEdge.Key key, int version) {}

  // the journaled data, as Jackson binds it (snake_case names, see RecallJson)

  @JsonIgnoreProperties(ignoreUnknown = true)
  record NodePutData(Integer version, MemoryNode node) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  private record NodeRemovedData(Integer version, String id) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record EdgePutData(Integer version, MemoryEdge edge) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  private record EdgeRemovedData(Integer version, String from, String edgeType, String to) {}

  static Event nodePut(MemoryNode n, int version) {
    return Event.ofJson(
        NODE_PUT,
        "{\"version\":" + version + ",\"node\":" + RecallJson.write(n) + "}",
        new NodePut(n, version));
  }

  static Event edgePut(MemoryEdge e, int version) {
    return Event.ofJson(
        EDGE_PUT,
        "{\"version\":" + version + ",\"edge\":" + RecallJson.write(e) + "}",
        new EdgePut(e, version));
  }

  static Event nodeRemoved(String id, int version) {
    ObjectNode data = RecallJson.MAPPER.createObjectNode();
    data.put("version", version).put("id", id);
    return Event.ofJson(NODE_REMOVED, data.toString(), new NodeRemoved(id, version));
  }

  static Event edgeRemoved(MemoryEdge.Key k, int version) {
    ObjectNode data = RecallJson.MAPPER.createObjectNode();
    data.put("version", version)
        .put("from", k.from())
        .put("edge_type", k.edgeType())
        .put("to", k.to());
    return Event.ofJson(EDGE_REMOVED, data.toString(), new EdgeRemoved(k, version));
  }

  /**
   * The node put by {@code e}, an event of type {@link #NODE_PUT}.
   *
   * @throws IllegalStateException if its data cannot be read
   */
  static NodePut nodePut(Event e) {
    if (e.decoded().isPresent()) {
      return (NodePut) e.decoded().get();
    }
    NodePut fast = RecallRecordReader.nodePut(e.json());
    if (fast != null) {
      return fast;
    }
    NodePutData d = bind(e, NodePutData.class);
    return new NodePut(present(d.node(), "node"), version(d.version()));
  }

  /** The node removed by {@code e}; see {@link #nodePut(Event)}. */
  static NodeRemoved nodeRemoved(Event e) {
    if (e.decoded().isPresent()) {
      return (NodeRemoved) e.decoded().get();
    }
    NodeRemovedData d = bind(e, NodeRemovedData.class);
    return new NodeRemoved(present(d.id(), "id"), version(d.version()));
  }

  /** The edge put by {@code e}; see {@link #nodePut(Event)}. */
  static EdgePut edgePut(Event e) {
    if (e.decoded().isPresent()) {
      return (EdgePut) e.decoded().get();
    }
    EdgePut fast = RecallRecordReader.edgePut(e.json());
    if (fast != null) {
      return fast;
    }
    EdgePutData d = bind(e, EdgePutData.class);
    return new EdgePut(present(d.edge(), "edge"), version(d.version()));
  }

  /** The edge removed by {@code e}; see {@link #nodePut(Event)}. */
  static EdgeRemoved edgeRemoved(Event e) {
    if (e.decoded().isPresent()) {
      return (EdgeRemoved) e.decoded().get();
    }
    EdgeRemovedData d = bind(e, EdgeRemovedData.class);
    return new EdgeRemoved(
        new MemoryEdge.Key(
            present(d.from(), "from"), present(d.edgeType(), "edge_type"), present(d.to(), "to")),
        version(d.version()));
  }

  private static <T> T bind(Event e, Class<T> type) {
    try {
      return RecallJson.MAPPER.readValue(e.json(), type);
    } catch (JsonProcessingException | IllegalArgumentException x) {
      String detail =
          x instanceof JsonProcessingException j ? j.getOriginalMessage() : x.getMessage();
      throw new IllegalStateException("unreadable " + e.type() + " event: " + detail, x);
    }
  }

  private static <T> T present(T value, String field) {
    if (value == null) {
      throw new IllegalStateException("event lacks '" + field + "'");
    }
    return value;
  }

  private static int version(Integer v) {
    if (v == null || v < 1) {
      throw new IllegalStateException("event lacks a positive 'version'");
    }
    return v;
  }
}
